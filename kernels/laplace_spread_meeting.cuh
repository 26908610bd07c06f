/*
 * laplace_spread_meeting.cuh - what the spread loop's blocks are given
 * (spread_args) and where they meet, in global memory: every block's norm sum of
 * each iteration and every strip's edge rows, as tagged words (laplace_tagged.cuh).
 * Included by laplace_spread.cu and laplace_spread_decide.cuh.
 */
#ifndef LAPLACE_SPREAD_MEETING_CUH
#define LAPLACE_SPREAD_MEETING_CUH

#include "kernels/laplace_spread.h"
#include "kernels/laplace_tagged.cuh" /* word, words_of */

/* Block b's sum of iteration k is kept at [k % SPREAD_SUM_SLOTS][b] until every
 * deciding warp has read it: a block writing k has seen its decision of k - F, so every
 * block had published k - F, after seeing its own decision of k - 2F: every deciding
 * warp has read the sums up to k - 2F, and 2F slots are never overwritten unread.
 * A strip's edge rows need only 2 slots (by the round's parity): before a block
 * publishes round r + 1's rows, it took its neighbours' rows of round r, which they
 * published after their round's barrier, after taking this block's rows of round
 * r - 1: so the slot of r - 1 is read before it is written again. */
#define SPREAD_SUM_SLOTS 16
/* The most blocks of a GPU's band, and the sums lane_sum holds at once (5 a lane in
 * registers; it takes the bands of several GPUs this many at a time). With room for 256
 * (8 a lane) every spread kernel spilled registers (96 a thread at most: 17 warps a
 * block); with 160 none of a lone tile's does (two of the bands' double kernels spill
 * 4 and 32 bytes). Measured on an H100, us an iteration, medians of 3, 160
 * against 256 (results/2026-11-27-pace, run-2): the columns in registers, float
 * 384^2 1.31 against 1.44, 512^2 1.59 against 1.63, double 512^2 2.43 against 2.44, the
 * course problem 0.645 s against 0.650. */
#define SPREAD_MOST_BLOCKS 160

/* Where the blocks meet, in global memory (zeroed before a run): tagged words. */
struct meeting {
    word *sums;  /* [16][B]: block b's norm sum of iteration k at [k % 16][b] */
    word *edges; /* [2][B][2][edge_depth][lx]: block b's first and last rows of the
                    round's first iteration, at [round % 2][b] */
};

static __host__ __device__ size_t edges_offset(long blocks)
{
    return SPREAD_SUM_SLOTS * (size_t)blocks * 2 * sizeof(word);
}

/* Everything the spread loop is given: a lone tile's, or (A) a band's of a loop over
 * several GPUs, whose words travel between GPUs. Block numbers (a strip's b) count over
 * every GPU of the loop; blockIdx.x is the block's place in this GPU's band. */
template <typename T, bool A> struct spread_args {
    T *field[2]; /* the tile's, global memory: read at the start, written at the end */
    long lx, ly; /* the lattice's columns and rows */
    long row0, tile_rows;         /* the tile's rows of the lattice: row0 ... */
    const T *south[2], *north[2]; /* spread_band's (the halos' fixed edge sites) */
    long rows;                    /* the most rows of a strip */
    long blocks;                  /* the loop's, over every GPU */
    long first, band;             /* this GPU's first block, and its blocks */
    int gpus, gpu;
    int depth;                /* h: the rows of a halo, the iterations of a round */
    int fields;               /* F: iteration k in field k % F */
    int threads_x, threads_y; /* the sweeping threads of a block */
    long batch;
    stop_state *state;
    double *norms;
    struct stop_rule stop_rule;
    T square_scale;
    unsigned char *meetings[SPREAD_MOST_GPUS]; /* every GPU's; this one's at [gpu] */
    patience wait; /* how long its waits may last (laplace_tagged.cuh) */
};

/* Where the blocks meet on GPU g of the loop. */
template <typename T, bool A>
__device__ static meeting meeting_at(const spread_args<T, A> &a, int g)
{
    meeting m;
    m.sums = reinterpret_cast<word *>(a.meetings[g]);
    m.edges = reinterpret_cast<word *>(a.meetings[g] + edges_offset(a.blocks));
    return m;
}

/* Where this GPU's blocks meet (every wait reads only there). */
template <typename T, bool A>
__device__ static meeting meeting_of(const spread_args<T, A> &a)
{
    return meeting_at(a, a.gpu);
}

/* Block b's sum of iteration k. */
template <typename T, bool A>
__device__ __forceinline__ word *sum_of(const spread_args<T, A> &a, const meeting &m,
                                        long b, long k)
{
    return m.sums + ((k % SPREAD_SUM_SLOTS) * a.blocks + b) * words_of<double>::count;
}

/* The rows a strip publishes at each of its edges: depth, or 1 at depth 0. */
__host__ __device__ __forceinline__ int edge_depth(int depth)
{
    return depth > 0 ? depth : 1;
}

/* Block b's edge rows in slot `slot` (side 0: its first rows, 1: its last); row r
 * column x at + (r lx + x) words_of<T>. */
template <typename T, bool A>
__device__ __forceinline__ word *edge_rows(const spread_args<T, A> &a, const meeting &m,
                                           long b, int side, int slot)
{
    return m.edges + ((slot * a.blocks + b) * 2 + side) * edge_depth(a.depth) * a.lx *
                         words_of<T>::count;
}

/* The same edge rows of block b in the meeting of the GPU beside this one whose block
 * reads them (side 0 of the band's first block, side 1 of its last), else NULL: the
 * rows a block publishes there too. */
template <typename T, bool A>
__device__ __forceinline__ word *edge_rows_across(const spread_args<T, A> &a, long b,
                                                  int side, int slot)
{
    if (!A)
        return NULL;
    const long place = b - a.first;
    if (side == 0 && place == 0 && a.gpu > 0)
        return edge_rows(a, meeting_at(a, a.gpu - 1), b, 0, slot);
    if (side == 1 && place == a.band - 1 && a.gpu + 1 < a.gpus)
        return edge_rows(a, meeting_at(a, a.gpu + 1), b, 1, slot);
    return NULL;
}

/* Stores v tagged k at here + i and, where the rows go across too (A), at there + i. */
template <bool A, typename T>
__device__ __forceinline__ void put_edge(word *here, word *there, long i, T v, long k)
{
    put<A>(here + i, v, k);
    if (A && there)
        put<A>(there + i, v, k);
}

/* Row y of the lattice in the field of iteration k's parity: the tile's own, or (the
 * halos of a band's end) the tile's below or above, through peer memory. */
template <typename T, bool A>
__device__ __forceinline__ const T *row_of(const spread_args<T, A> &a, long k, long y)
{
    if (y < a.row0)
        return a.south[k & 1] + (y - a.row0 + 1) * a.lx;
    if (y >= a.row0 + a.tile_rows)
        return a.north[k & 1] + (y - a.row0 - a.tile_rows) * a.lx;
    return a.field[k & 1] + (y - a.row0) * a.lx;
}

#endif
