/*
 * laplace_spread_columns.cuh - the spread loop's sweep with each sweeping thread's
 * column in registers (laplace_spread.cu's head comment has the loop), for strips of R
 * rows (2 ... SPREAD_COLUMN_ROWS - 2 SPREAD_DEPTH) in rounds of H = SPREAD_DEPTH, on a
 * tile at most SPREAD_SWEEPERS + 2 columns wide. Thread tx holds column 1 + tx of the
 * strip's R + 2H field rows (field row l: the lattice's row y0 - H + l), every row index
 * known when compiled: the block runs the loop compiled for its own R (strips differ by
 * a row at most). Its west and east values come from the lanes beside it (shuffles),
 * and at a warp's edges from the columns the neighbour warps hand over in shared memory
 * (`sides`, written before the barrier that ends a step, read in the next). Shared
 * memory keeps only the strip's own rows of the last F iterations (the ring: iteration
 * k in copy k % F), which is what a stop stores. The halos, the edge rows, the sums and
 * the decisions travel as with the fields in shared memory (laplace_spread_fields.cuh),
 * and the updates and the squares are the same in the same order (a thread's column,
 * rows upwards), so the field, the norms and the stop are the same bits.
 *
 * Measured on an H100, the course problem (512^2, float, 423553 iterations), medians of
 * 3 (results/2026-11-27-pace, run-2): 0.645 s, against 0.850 with the fields in shared
 * memory; and with room for 256 blocks' sums (SPREAD_MOST_BLOCKS) 0.650, against 0.979
 * with this sweep's row indices known only at run time (select chains and predicates in
 * every step; results/2026-11-27-regs, columns.patch).
 */
#ifndef LAPLACE_SPREAD_COLUMNS_CUH
#define LAPLACE_SPREAD_COLUMNS_CUH

#include "kernels/laplace_sites.cuh"          /* jacobi, square_of, sweepers_meet */
#include "kernels/laplace_spread_decide.cuh"  /* decisions, stopped_by */
#include "kernels/laplace_spread_meeting.cuh" /* edge_rows */
#include "kernels/laplace_spread_strip.cuh"
#include "kernels/laplace_tagged.cuh" /* put, take_columns */

/* The most field rows a thread holds: a strip's rows and its two halos. */
#define SPREAD_COLUMN_ROWS 8

/* The columns beside each warp, for a step of each parity: [parity][warp][side][row],
 * side 0 the column left of the warp, 1 the one right of it. */
template <typename T>
using column_sides = T[2][SPREAD_SWEEPERS / 32][2][SPREAD_COLUMN_ROWS];

/* A thread's place: its column x, its lane and warp, whether it holds a column of the
 * tile (x < lx) and updates it (x < lx - 1; column lx - 1 is the fixed edge), and the
 * block's inner rows, [inner_lo, inner_hi) (inner_rows: the rows of the first and last
 * blocks' halos past the lattice's edge rows are swept and not kept). */
struct column_place {
    int x, lane, warp;
    bool holds, updates;
    int inner_lo, inner_hi;
};

template <typename T, bool A>
__device__ __forceinline__ column_place place_of(const spread_args<T, A> &a,
                                                 const strip<T> &s)
{
    column_place c;
    c.x = 1 + s.tx;
    c.lane = threadIdx.x & 31;
    c.warp = threadIdx.x / 32;
    c.holds = c.x < a.lx;
    c.updates = c.x < a.lx - 1;
    inner_rows(a, s, &c.inner_lo, &c.inner_hi);
    return c;
}

/* The lattice's column x of field row l (the global field of iteration k; at a band's
 * end, the tile's beside it), 0 where the row lies outside the lattice. */
template <typename T, int H, bool A>
__device__ __forceinline__ T lattice_at(const spread_args<T, A> &a, const strip<T> &s,
                                        long k, long x, int l)
{
    const long y = s.y0 - H + l;
    const bool inside = y >= 0 && y < a.ly && x < a.lx;
    return inside ? row_of(a, k, y)[x] : T(0);
}

/* The strip's own rows of an iteration into copy f of the ring, the columns this
 * thread updates. */
template <typename T, int H, int R, bool A>
__device__ __forceinline__ void keep_own_rows(const spread_args<T, A> &a,
                                              const strip<T> &s, const column_place &p,
                                              int f, const T (&c)[R + 2 * H])
{
    if (!p.updates)
        return;
    T *own = s.shared + f * s.size + p.x;
#pragma unroll
    for (int l = H; l < H + R; l++)
        own[(l - H) * a.lx] = c[l];
}

/* The lap's start: the column of iteration k (global memory) into registers and into
 * the ring; the fixed edge columns (0, and lx - 1 where no thread holds it) into every
 * copy of the ring and into the sides of both parities, where nothing overwrites them. */
template <typename T, int H, int R, bool A>
__device__ static void load_column(const spread_args<T, A> &a, const strip<T> &s,
                                   const column_place &p, long k, T (&c)[R + 2 * H],
                                   column_sides<T> &sides, int sweepers)
{
#pragma unroll
    for (int l = 0; l < R + 2 * H; l++)
        c[l] = p.holds ? lattice_at<T, H>(a, s, k, p.x, l) : T(0);
    keep_own_rows<T, H, R>(a, s, p, (int)(k % a.fields), c);
    for (long i = threadIdx.x; i < a.fields * R; i += sweepers) {
        T *own = s.shared + (i / R) * s.size + (i % R) * a.lx;
        const T *global = row_of(a, k, s.y0 + i % R);
        own[0] = global[0];
        own[a.lx - 1] = global[a.lx - 1];
    }
    const int warps = sweepers / 32;
    const bool east_fixed = 1 + sweepers == a.lx - 1; /* no thread holds column lx - 1 */
    if (threadIdx.x < R + 2 * H)
        for (int parity = 0; parity < 2; parity++) {
            const int l = threadIdx.x;
            sides[parity][0][0][l] = lattice_at<T, H>(a, s, k, 0, l);
            if (east_fixed)
                sides[parity][warps - 1][1][l] = lattice_at<T, H>(a, s, k, a.lx - 1, l);
        }
}

/* This thread's column into the sides its neighbour warps read in the next step. */
template <typename T, int N>
__device__ __forceinline__ void
hand_sides(const column_place &p, const T (&c)[N],
           T (&sides)[SPREAD_SWEEPERS / 32][2][SPREAD_COLUMN_ROWS], int warps)
{
#pragma unroll
    for (int l = 0; l < N; l++) {
        if (p.lane == 31 && p.warp + 1 < warps)
            sides[p.warp + 1][0][l] = c[l];
        if (p.lane == 0 && p.warp > 0)
            sides[p.warp - 1][1][l] = c[l];
    }
}

/* Step 1 of a round: the halos of iteration k into the column, from the edge rows the
 * neighbours published in slot `slot` (none below block 0, none above the last). */
template <typename T, int H, int R, bool A>
__device__ __forceinline__ void
take_column_halos(const spread_args<T, A> &a, const meeting &m, const strip<T> &s,
                  const column_place &p, long k, int slot, T (&c)[R + 2 * H])
{
    const int n = words_of<T>::count;
    word *below = p.updates && s.b > 0 ? edge_rows(a, m, s.b - 1, 1, slot) : NULL;
    word *above =
        p.updates && s.b + 1 < a.blocks ? edge_rows(a, m, s.b + 1, 0, slot) : NULL;
    T south[H], north[H];
    take_columns<H, A>(below ? below + p.x * n : NULL, above ? above + p.x * n : NULL,
                       a.lx * n, H, k, south, north, a.wait);
#pragma unroll
    for (int r = 0; r < H; r++) {
        if (below)
            c[r] = south[r];
        if (above)
            c[H + R + r] = north[r];
    }
}

/* Step j of a round: field rows j ... R + 2H - j - 1 of the column (those the thread
 * may update) from their old values and their neighbours' (the lanes beside it; at the
 * warp's edges, `sides`). Returns the squares of the updates of the strip's own rows,
 * added upwards as walk_column adds them. */
template <typename T, int H, int R, bool A>
__device__ __forceinline__ double
step_column(const spread_args<T, A> &a, const column_place &p, int j, T (&c)[R + 2 * H],
            const T (&sides)[SPREAD_SWEEPERS / 32][2][SPREAD_COLUMN_ROWS])
{
    T south = c[j - 1]; /* row l - 1's old value */
    double acc = 0.0;
#pragma unroll
    for (int l = j; l < R + 2 * H - j; l++) {
        const T here = c[l];
        T west = __shfl_up_sync(0xffffffffu, here, 1);
        T east = __shfl_down_sync(0xffffffffu, here, 1);
        if (p.lane == 0)
            west = sides[p.warp][0][l];
        if (p.lane == 31)
            east = sides[p.warp][1][l];
        if (p.updates && l >= p.inner_lo && l < p.inner_hi) {
            c[l] = jacobi(south, west, east, c[l + 1]);
            if (l >= H && l < H + R)
                acc += square_of(c[l] - here, a.square_scale);
        }
        south = here;
    }
    return acc;
}

/* Step 3 of a round (and the lap's start): the column's part of the strip's first and
 * last H rows of iteration k into slot `slot`, tagged k, where a neighbour takes them
 * (on its GPU). */
template <typename T, int H, int R, bool A>
__device__ __forceinline__ void
publish_column_edges(const spread_args<T, A> &a, const meeting &m, const strip<T> &s,
                     const column_place &p, long k, int slot, const T (&c)[R + 2 * H])
{
    if (!p.updates)
        return;
    const int n = words_of<T>::count;
    word *first = edge_rows(a, m, s.b, 0, slot), *last = edge_rows(a, m, s.b, 1, slot);
    word *first_across = edge_rows_across(a, s.b, 0, slot);
    word *last_across = edge_rows_across(a, s.b, 1, slot);
#pragma unroll
    for (int r = 0; r < H; r++) {
        const long i = (r * a.lx + p.x) * n;
        if (s.b > 0)
            put_edge<A>(first, first_across, i, c[H + r], k);
        if (s.b + 1 < a.blocks)
            put_edge<A>(last, last_across, i, c[R + r], k);
    }
}

/*
 * The sweeping threads' loop for strips of R rows, in rounds of H iterations, as
 * sweep_loop's with halos (laplace_spread_fields.cuh): thread 0 waits for the decision
 * of the last iteration the round overwrites in the ring while the halos come; after
 * each iteration's barrier warp 0 publishes the strip's sum of it.
 */
/* What a block's sweeping threads share besides the ring, in shared memory. */
template <typename T> struct column_shared {
    warp_sums_of warp_sums;
    bool stop_seen[2]; /* thread 0 saw the stop in round r, at r % 2 */
    column_sides<T> sides;
};

template <typename T, int H, int R, bool A>
__device__ static void column_loop(const spread_args<T, A> &a, const meeting &m,
                                   const strip<T> &s, decisions *d, long start,
                                   long batch, column_shared<T> &shared)
{
    static_assert(R + 2 * H <= SPREAD_COLUMN_ROWS, "a strip and its halos in registers");
    warp_sums_of &warp_sums = shared.warp_sums;
    bool *stop_seen = shared.stop_seen;
    column_sides<T> &sides = shared.sides;
    const int sweepers = a.threads_x, warps = sweepers / 32;
    const column_place p = place_of(a, s);
    const long end = start + batch;
    long since_check = start % a.stop_rule.check_every;
    T c[R + 2 * H];
    load_column<T, H, R>(a, s, p, start, c, sides, sweepers);
    publish_column_edges<T, H, R>(a, m, s, p, start, 0, c);
    int parity = 0;                  /* of the next step's sides */
    int f = (int)(start % a.fields); /* k's copy in the ring */
    long k = start;
    for (int round = 0; k < end; round++) {
        const int steps = (int)min((long)H, end - k);
        if (threadIdx.x == 0)
            stop_seen[round & 1] = stopped_by(d, k + steps - a.fields);
        take_column_halos<T, H, R>(a, m, s, p, k, round & 1, c);
        hand_sides(p, c, sides[parity], warps);
        sweepers_meet(sweepers); /* the sides, the fixed ones, the stop */
        if (stop_seen[round & 1])
            break; /* at the same round in every block: none waits for a block gone */
#pragma unroll
        for (int j = 1; j <= H; j++) {
            if (j > steps)
                break;
            const double v = step_column<T, H, R>(a, p, j, c, sides[parity]);
            parity ^= 1;
            k++;
            f = f + 1 == a.fields ? 0 : f + 1;
            keep_own_rows<T, H, R>(a, s, p, f, c);
            if (j < steps)
                hand_sides(p, c, sides[parity], warps);
            hand_warp_sum(v, takes_norm(a, k, &since_check), warp_sums, k);
            sweepers_meet(sweepers); /* the sides, the ring, the warps' sums */
            publish_block_sum(a, m, s, warp_sums, k, warps);
        }
        publish_column_edges<T, H, R>(a, m, s, p, k, (round + 1) & 1, c);
    }
}

/* The sweeping threads' loop compiled for this block's strip: SPREAD_DEPTH rows of
 * halo, and 2, 3 or 4 own rows (the plan's rows or one fewer; fits_columns). */
template <typename T, bool A>
__device__ static void strip_column_loop(const spread_args<T, A> &a, const meeting &m,
                                         const strip<T> &s, decisions *d, long start,
                                         long batch)
{
    static_assert(SPREAD_COLUMN_ROWS - 2 * SPREAD_DEPTH == 4, "column_loop<2 ... 4>");
    __shared__ column_shared<T> shared; /* once for the three */
    if (s.rows == 4)
        column_loop<T, SPREAD_DEPTH, 4>(a, m, s, d, start, batch, shared);
    else if (s.rows == 3)
        column_loop<T, SPREAD_DEPTH, 3>(a, m, s, d, start, batch, shared);
    else
        column_loop<T, SPREAD_DEPTH, 2>(a, m, s, d, start, batch, shared);
}

#endif
