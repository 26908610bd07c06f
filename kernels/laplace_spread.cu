/*
 * laplace_spread.cu - the loop on chip spread over the multiprocessors
 * (laplace_spread.h): a lone tile whose fields fit in the shared memory of the whole
 * GPU, not of one cluster, runs all its iterations in one resident launch.
 *
 *   block B-1  | halo | strip B-1        |  F fields in shared memory  | deciding warp
 *      ...            ^ v   h edge rows every h iterations, tagged, through L2
 *   block b    | halo | strip b   | halo |                             | deciding warp
 *      ...            ^ v
 *   block 0           | strip 0   | halo |                             | deciding warp
 *
 * The iterations go in rounds of h (the plan's depth). A block's F fields (iteration k
 * in field k % F) hold its strip and h rows of each neighbour's strip beside it (the
 * halos). In the round from iteration k the sweeping threads of block b:
 *   1. take the halos of k: the h edge rows that the blocks below and above published
 *      for k, once their tags say k; thread 0 meanwhile waits for the block's deciding
 *      warp to have decided k + h - F, the last iteration the round's fields held: a
 *      stop there (its field still whole) ends the loop, after the block's barrier;
 *   2. sweep h iterations without another block: iteration k + j over the strip and
 *      the h - j rows of each halo that the halos reach (rows a neighbour sweeps too,
 *      to the same bits), adding the squares of the strip's own rows only; after
 *      the block's barrier warp 0 publishes the strip's norm sum of k + j, tagged;
 *   3. publish the strip's first and last h rows of k + h, tagged, for the
 *      neighbours' next round.
 * So the blocks meet through L2 once a round, not once an iteration. Where the halos
 * do not fit, depth 0 keeps no halo and meets every iteration: a block sweeps its
 * first and last rows first, taking the outer neighbours straight from the edge rows
 * the neighbours published for k - 1, publishes its own at once and sweeps its inside
 * while they travel (sweep_edges). Where even that does not fit in three fields, two
 * (a lag of 1: the sweepers wait for the decision of the iteration before).
 * The deciding warp of every block (laplace_spread_decide.cuh) takes every block's sum
 * of k once its tag says k, adds the B sums in one fixed order (lane l blocks l, l + 32,
 * ..., then the lanes pairwise; in double) and takes the stop decision of k
 * (stop_rule.h): the same sums in the same order, so the same decision in every block,
 * taken while its sweepers go on. No barrier of the whole grid and no fence: a value and
 * its tag travel in one 8-byte word, and sweepers wait only for their two neighbours'
 * values. The launch is cooperative, so every block is resident at once and the waits
 * cannot deadlock.
 */
#include "kernels/laplace_spread.h"

#include <stdlib.h>

#include "kernels/laplace_sites.cuh"
#include "kernels/laplace_spread_decide.cuh"  /* the deciding warp */
#include "kernels/laplace_spread_meeting.cuh" /* spread_args, meeting, sum_of, edge_rows */
#include "kernels/laplace_tagged.cuh"         /* word, put, take_columns */

/* The most threads a block has: its sweepers and one warp. Measured on an H100, double,
 * 1024^2: 5.8 us an iteration with 512 sweepers, 7.2 with 992 (results/2026-11-26-spread,
 * probe-5), whose limit of 64 registers a thread spilled 264 bytes (512: 96 registers,
 * 28 bytes). */
#define SPREAD_THREADS 544
#define SPREAD_SWEEPERS (SPREAD_THREADS - 32)
/* A strip has at least this many rows, and at least the plan's depth; a block at least
 * about SPREAD_BLOCK_THREADS sweeping threads (a thread a column, rows of threads until
 * there are at least that many). */
#define SPREAD_LEAST_ROWS 2
#define SPREAD_BLOCK_THREADS 512
/* The deepest halo (take_columns' registers) and the depth a plan tries first. */
#define SPREAD_MOST_DEPTH 4
#define SPREAD_DEPTH 2
/* F = edge_depth(depth) + lag fields (depth, or 1 at depth 0): the deciding warps may
 * decide an iteration up to lag iterations after the sweepers finished it;
 * SPREAD_LONG_LAG where it fits, else SPREAD_LAG (spread_tries). */
#define SPREAD_LONG_LAG 3
#define SPREAD_LAG 2
/* The longest lag LAPLACE_SPREAD_LAG may ask for: the sum slots hold 2F iterations. */
#define SPREAD_MOST_LAG 4
static_assert(2 * (SPREAD_MOST_DEPTH + SPREAD_MOST_LAG) <= SPREAD_SUM_SLOTS,
              "a block's sum must stay in its slot until every deciding warp read it");
/* What one sweeping thread holds and sees: its block's strip and its place. A field
 * holds depth rows of halo, the strip's rows, depth rows of halo: field row l is the
 * lattice's row y0 - depth + l. */
template <typename T> struct strip {
    T *shared; /* field f at shared + f * size */
    long size; /* a field's values: (the most rows + 2 depth) lx */
    long b, y0, rows;
    int tx, ty; /* the thread's column and row among threads_x x threads_y */
};

template <typename T>
__device__ static strip<T> strip_of(const spread_args<T> &a, T *shared)
{
    strip<T> s;
    s.shared = shared;
    s.size = (a.rows + 2 * a.depth) * a.lx;
    s.b = blockIdx.x;
    s.y0 = s.b * a.ly / a.blocks;
    s.rows = (s.b + 1) * a.ly / a.blocks - s.y0;
    s.tx = threadIdx.x % a.threads_x;
    s.ty = threadIdx.x / a.threads_x;
    return s;
}

/* Field f of the strip, from its first halo row. */
template <typename T> __device__ __forceinline__ T *field_of(const strip<T> &s, int f)
{
    return s.shared + f * s.size;
}

/* The strip's own rows in field f. */
template <typename T>
__device__ __forceinline__ T *own_rows(const spread_args<T> &a, const strip<T> &s, int f)
{
    return field_of(s, f) + a.depth * a.lx;
}

/*
 * Step j of a round: field rows lo .. hi - 1 from `in` into `out`. Thread (tx, ty)
 * walks up columns 1 + tx, 1 + tx + threads_x, ... through its segment ty of those
 * rows, carrying the south and centre values in registers. Returns the squares of
 * the updates of the strip's own rows.
 */
template <bool HALOS, int UNROLL, typename T>
__device__ static double sweep_rows(const spread_args<T> &a, const strip<T> &s,
                                    const T *in, T *out, int lo, int hi)
{
    const int lx = (int)a.lx, own_lo = a.depth, own_hi = a.depth + (int)s.rows;
    const int segment = (hi - lo + a.threads_y - 1) / a.threads_y;
    const int y0 = lo + s.ty * segment, y1 = min(hi, y0 + segment);
    double acc = 0.0;
    for (int x = 1 + s.tx; x < lx - 1 && y0 < y1;
         x += a.threads_x) /* no halos: all own */
        acc = walk_column<!HALOS, UNROLL>(in, out, lx, x, y0, y1, own_lo, own_hi,
                                          a.square_scale, acc);
    return acc;
}

/* The field rows step j of a round updates: the strip and the depth - j rows of each
 * halo next to it, inside the lattice's edge rows. */
template <typename T>
__device__ __forceinline__ void rows_of_step(const spread_args<T> &a, const strip<T> &s,
                                             int j, int *lo, int *hi)
{
    const int h = a.depth, below = (int)s.y0 - h; /* the lattice's row of field row 0 */
    *lo = max(j, 1 - below);
    *hi = min((int)s.rows + 2 * h - j, (int)a.ly - 1 - below);
}

/* Step 1 of a round: the halos' inner columns of iteration k into field f, from the
 * edge rows the neighbours published in slot `slot` (none below block 0, none above
 * the last). */
template <typename T>
__device__ static void take_halos(const spread_args<T> &a, const meeting &m,
                                  const strip<T> &s, long k, int slot, T *field,
                                  int sweepers)
{
    const int n = words_of<T>::count, lx = (int)a.lx;
    word *below = s.b > 0 ? edge_rows(a, m, s.b - 1, 1, slot) : NULL;
    word *above = s.b + 1 < a.blocks ? edge_rows(a, m, s.b + 1, 0, slot) : NULL;
    T *low = field, *high = field + (a.depth + s.rows) * lx;
    for (int x = 1 + threadIdx.x; x < lx - 1; x += sweepers) {
        T south[SPREAD_MOST_DEPTH], north[SPREAD_MOST_DEPTH];
        take_columns<SPREAD_MOST_DEPTH>(below ? below + x * n : NULL,
                                        above ? above + x * n : NULL, (long)lx * n,
                                        a.depth, k, south, north);
#pragma unroll
        for (int r = 0; r < SPREAD_MOST_DEPTH; r++)
            if (r < a.depth) {
                if (below)
                    low[r * lx + x] = south[r];
                if (above)
                    high[r * lx + x] = north[r];
            }
    }
}

/*
 * Updates site i of the strip from `in` into `out`, its south and north values given,
 * and publishes the new value at `edge` too, tagged k. Returns the norm's term.
 */
template <typename T>
__device__ __forceinline__ double update_edge(const spread_args<T> &a, const T *in,
                                              T *out, int i, T south, T north, word *edge,
                                              long k)
{
    const T v = jacobi(south, in[i - 1], in[i + 1], north);
    out[i] = v;
    put(edge, v, k);
    return square_of(v - in[i], a.square_scale);
}

/*
 * Depth 0 (no halos): iteration k + 1 of the strip's first and last rows, where they
 * read another strip (row 0 of thread row 0; the last row of thread row 1, or 0 if
 * there is one), taking each outer neighbour straight from the edge row of k that the
 * block below or above published in slot `slot`, and publishing the new values at once
 * in the other slot, tagged k + 1: the neighbours take them while this strip sweeps its
 * inside. The same thread handles the same columns every iteration, so the thread
 * that overwrites a slot's column x has taken the neighbour's column x computed from
 * it (SPREAD_SUM_SLOTS' comment).
 */
template <typename T>
__device__ static double sweep_edges(const spread_args<T> &a, const meeting &m,
                                     const strip<T> &s, long k, int slot, const T *in,
                                     T *out)
{
    const int n = words_of<T>::count, lx = (int)a.lx, top = ((int)s.rows - 1) * lx;
    const bool low = s.ty == 0 && s.b > 0;
    const bool high = s.ty == (a.threads_y > 1 ? 1 : 0) && s.b + 1 < a.blocks;
    if (!low && !high)
        return 0.0;
    word *below = low ? edge_rows(a, m, s.b - 1, 1, slot) : NULL;
    word *above = high ? edge_rows(a, m, s.b + 1, 0, slot) : NULL;
    word *mine_low = edge_rows(a, m, s.b, 0, slot ^ 1);
    word *mine_high = edge_rows(a, m, s.b, 1, slot ^ 1);
    double acc = 0.0;
    for (int x = 1 + s.tx; x < lx - 1; x += a.threads_x) {
        T south, north;
        take_columns<1>(below ? below + x * n : NULL, above ? above + x * n : NULL, 0, 1,
                        k, &south, &north);
        if (low)
            acc += update_edge(a, in, out, x, south, in[lx + x], mine_low + x * n, k + 1);
        if (high)
            acc += update_edge(a, in, out, top + x, in[top - lx + x], north,
                               mine_high + x * n, k + 1);
    }
    return acc;
}

/* Step 3 of a round (and the lap's start): the inner columns of the strip's first and
 * last edge_depth rows of iteration k (field f) into slot `slot`, tagged k, where a
 * neighbour takes them. */
template <typename T>
__device__ static void publish_edges(const spread_args<T> &a, const meeting &m,
                                     const strip<T> &s, long k, int slot, int f,
                                     int sweepers)
{
    const int n = words_of<T>::count, lx = (int)a.lx;
    const bool down = s.b > 0, up = s.b + 1 < a.blocks;
    word *first = edge_rows(a, m, s.b, 0, slot), *last = edge_rows(a, m, s.b, 1, slot);
    const int rows = edge_depth(a.depth);
    const T *own = own_rows(a, s, f), *top = own + (s.rows - rows) * lx;
    for (int x = 1 + threadIdx.x; x < lx - 1; x += sweepers)
        for (int r = 0; r < rows; r++) {
            const int i = r * lx + x;
            if (down)
                put(first + i * n, own[i], k);
            if (up)
                put(last + i * n, top[i], k);
        }
}

/* The lap's start: field[k % 2] (global memory, iteration k) into every field, the
 * halos' rows too, so that each field holds the lattice's fixed edge sites (a sweep
 * writes none, and take_halos only the halos' inner columns). */
template <typename T>
__device__ static void load_strip(const spread_args<T> &a, const strip<T> &s, long k,
                                  int sweepers)
{
    const long first = max(s.y0 - a.depth, 0L);
    const long last = min(s.y0 + s.rows + a.depth, a.ly); /* rows first .. last - 1 */
    const long n = (last - first) * a.lx, skip = (first - (s.y0 - a.depth)) * a.lx;
    const T *global = a.field[k & 1] + first * a.lx;
    for (long i = threadIdx.x; i < n; i += sweepers) {
        const T v = global[i];
        for (int f = 0; f < a.fields; f++)
            field_of(s, f)[skip + i] = v;
    }
}

/* The lap's end: the strip of iteration k into field[k % 2] (global memory). */
template <typename T>
__device__ static void store_strip(const spread_args<T> &a, const strip<T> &s, long k,
                                   int threads)
{
    const long n = s.rows * a.lx;
    T *global = a.field[k & 1] + s.y0 * a.lx;
    const T *mine = own_rows(a, s, (int)(k % a.fields));
    for (long i = threadIdx.x; i < n; i += threads)
        global[i] = mine[i];
}

/*
 * The sweeping threads' loop, in rounds of depth iterations (the head comment; one at
 * depth 0): iteration k sweeps field (k - 1) % F into k % F; after each iteration's
 * barrier warp 0 publishes the strip's sum of k. Thread 0 waits for the decision of
 * the last iteration a round overwrites (with halos, at the round's start, while the
 * halos come; at depth 0, after the round's sweep, which overwrote only what was
 * decided before, and before its barrier): a stop there ends the loop of every block
 * at the same round, so no block waits for the edge rows of a block that has left.
 */
template <bool HALOS, int UNROLL, typename T>
__device__ static void sweep_loop(const spread_args<T> &a, const meeting &m,
                                  const strip<T> &s, decisions *d, long start, long batch)
{
    __shared__ double warp_sums[2][32]; /* of iterations of each parity */
    __shared__ bool stop_seen[2];       /* thread 0 saw the stop in round r, at r % 2 */
    const int sweepers = a.threads_x * a.threads_y, warps = sweepers / 32;
    const long end = start + batch;
    long since_check = start % a.rule.check_every;
    int f = (int)(start % a.fields); /* the field of iteration k */
    load_strip(a, s, start, sweepers);
    sweepers_meet(sweepers);
    publish_edges(a, m, s, start, 0, f, sweepers);
    long k = start;
    for (int round = 0; k < end; round++) {
        const int steps = (int)min((long)edge_depth(a.depth), end - k);
        if (HALOS) {
            if (threadIdx.x == 0)
                stop_seen[round & 1] = stopped_by(d, k + steps - a.fields);
            take_halos(a, m, s, k, round & 1, field_of(s, f), sweepers);
            sweepers_meet(sweepers); /* the halos, the stop */
            if (stop_seen[round & 1])
                break; /* at the same round in every block: none waits for a block gone */
        }
        for (int j = 1; j <= steps; j++) {
            const T *in = field_of(s, f);
            f = f + 1 == a.fields ? 0 : f + 1;
            T *out = field_of(s, f);
            int lo, hi;
            rows_of_step(a, s, j, &lo, &hi);
            double v = HALOS ? 0.0 : sweep_edges(a, m, s, k, round & 1, in, out);
            v += sweep_rows<HALOS, UNROLL>(a, s, in, out, lo, hi);
            k++;
            since_check = since_check + 1 == a.rule.check_every ? 0 : since_check + 1;
            const bool check = since_check == 0 || k == a.rule.max_iter; /* wants_norm */
            v = check ? warp_total(v) : 0.0;
            if ((threadIdx.x & 31) == 0)
                warp_sums[k & 1][threadIdx.x / 32] = v;
            if (!HALOS && threadIdx.x == 0)
                stop_seen[round & 1] = stopped_by(d, k + 1 - a.fields);
            sweepers_meet(sweepers); /* the strip's new rows, its warps' sums, the stop */
            /* warp 0 adds the warps' sums in warp_total's order */
            if (threadIdx.x < 32) {
                const double total =
                    warp_total(threadIdx.x < warps ? warp_sums[k & 1][threadIdx.x] : 0.0);
                if (threadIdx.x == 0)
                    put(sum_of(a, m, s.b, k), total, k);
            }
        }
        if (!HALOS && stop_seen[round & 1])
            break; /* likewise */
        if (HALOS)
            publish_edges(a, m, s, k, (round + 1) & 1, f, sweepers);
    }
}

/* The loop, with halos (depth > 0) or without (HALOS false: depth 0), compiled apart so
 * that neither pays for the other's tests, its columns walked UNROLL rows at a time. */
template <typename T, bool HALOS, int UNROLL>
__global__ void __launch_bounds__(SPREAD_THREADS, 1) spread_loop(spread_args<T> a)
{
    extern __shared__ unsigned char spread_bytes[];
    __shared__ decisions d;
    const meeting m = meeting_of(a);
    const strip<T> s = strip_of(a, reinterpret_cast<T *>(spread_bytes));
    const stop_state begin = *a.state;
    const long batch = begin.stopped ? 0 : a.batch;
    const int sweepers = a.threads_x * a.threads_y;
    if (threadIdx.x == 0) {
        d.decided = (unsigned long long)begin.iteration;
        d.stop_at = 0;
    }
    __syncthreads();
    if ((int)threadIdx.x < sweepers)
        sweep_loop<HALOS, UNROLL>(a, m, s, &d, begin.iteration, batch);
    else
        decide_loop(a, m, &d, begin, batch);
    __syncthreads(); /* the decisions are all taken */
    store_strip(a, s, d.final, blockDim.x);
}

/* For tuning experiments and the GPU suite: LAPLACE_SPREAD_BLOCKS (2 ... the
 * multiprocessors) replaces the choice of the blocks, LAPLACE_SPREAD_DEPTH (0 ...
 * SPREAD_MOST_DEPTH) the depth tried first, LAPLACE_SPREAD_LAG (1 ... 4) every lag
 * tried, LAPLACE_SPREAD_THREADS (32 ... 512) SPREAD_BLOCK_THREADS, LAPLACE_SPREAD_UNROLL
 * (3, 4) unroll_of; `unset` when unset or out of range. */
static long tuning(const char *name, long least, long most, long unset)
{
    const char *text = getenv(name);
    char *end = NULL;
    const long v = text ? strtol(text, &end, 10) : unset;
    return text && end != text && *end == '\0' && v >= least && v <= most ? v : unset;
}

/* The rows a sweeping thread walks at a time (walk_column) in strips of `rows` rows:
 * 3 in float strips of up to 4 rows, else 4 (the compiler's own choice). Measured on
 * an H100, us an iteration, the norm every iteration, medians of 3, 3 against 4 rows
 * (results/2026-11-27-shapes, run-2): float 288^2 (strips of 3 rows) 2.12 against 2.21,
 * 384^2 2.24 against 2.33, 512^2 2.22 against 2.44, the course problem 0.920 against
 * 1.013 s; from 5 rows 4 is faster (640^2 2.85 against 3.12, 1024^2 3.59 against
 * 3.82), and in double too (384^2 2.41 against 2.45, 512^2 2.89 against 2.90). */
static int unroll_of(long rows, size_t value_size)
{
    return value_size == sizeof(float) && rows <= 4 ? 3 : 4;
}

/* The shape of `blocks` strips with halos `depth` rows deep over the tile, in depth +
 * lag fields, its shared memory not yet checked. */
static spread_plan shape_of(int blocks, int depth, int lag, long lx, long ly,
                            size_t value_size)
{
    spread_plan p = {};
    p.blocks = blocks;
    p.depth = depth;
    p.fields = edge_depth(depth) + lag;
    p.rows = (ly + blocks - 1) / blocks;
    p.unroll = (int)tuning("LAPLACE_SPREAD_UNROLL", 3, 4, unroll_of(p.rows, value_size));
    p.shared_bytes =
        (size_t)p.fields * (size_t)(p.rows + 2 * depth) * (size_t)lx * value_size;
    const size_t edge_words = 2 * (size_t)blocks * 2 * (size_t)edge_depth(depth) *
                              (size_t)lx * (value_size / 4);
    p.meeting_bytes = edges_offset(blocks) + edge_words * sizeof(word);
    const long least = tuning("LAPLACE_SPREAD_THREADS", 32, SPREAD_SWEEPERS, 0);
    strip_threads(lx, p.rows + 2 * (depth > 0 ? depth - 1 : 0),
                  least ? least : SPREAD_BLOCK_THREADS, SPREAD_SWEEPERS, &p.threads_x,
                  &p.threads_y);
    return p;
}

/* How many strips of at least `least` rows: one a multiprocessor, or as asked. */
static long blocks_of(long ly, int sms, long least)
{
    long blocks = ly / least < sms ? ly / least : sms;
    blocks = blocks < SPREAD_MOST_BLOCKS ? blocks : SPREAD_MOST_BLOCKS;
    const long forced = tuning("LAPLACE_SPREAD_BLOCKS", 2, blocks, 0);
    return forced ? forced : blocks;
}

/* The plans tried, in order, until one fits: {depth, lag}. Measured on an H100, us an
 * iteration, float, the norm every iteration (results/2026-11-26-rounds, probe-2):
 * depth 2 is the fastest or as fast as any from 128^2 to 1024^2 (512^2: 1 2.9, 2 2.25,
 * 3 2.66, 4 2.45); a lag of 1 (two fields) keeps on chip the largest lattices that
 * fitted before the halos, where an iteration is long enough to hide the decision.
 * A lag of 3 at depth 2 where its fifth field fits (float up to about 900^2, double
 * about 600^2), medians of 3 against a lag of 2 (results/2026-11-27-regs, run-10):
 * float 384^2 1.98 against 2.15, 512^2 2.24 against 2.23, 768^2 3.05 against 3.01,
 * double 512^2 2.84 against 2.87; where it does not fit (float 1024^2), a lag of 2. */
static const int spread_tries[][2] = {
    {SPREAD_DEPTH, SPREAD_LONG_LAG}, {SPREAD_DEPTH, SPREAD_LAG}, {0, SPREAD_LAG}, {0, 1}};

/* The first plan of spread_tries (or of the depth asked for) whose fields fit in
 * `shared` bytes of a block; blocks 0 where none does. */
static spread_plan first_fit(long lx, long ly, int sms, size_t shared, size_t value_size)
{
    const long asked = tuning("LAPLACE_SPREAD_DEPTH", 0, SPREAD_MOST_DEPTH, -1);
    const long asked_lag = tuning("LAPLACE_SPREAD_LAG", 1, SPREAD_MOST_LAG, 0);
    const int tries = (int)(sizeof spread_tries / sizeof spread_tries[0]);
    for (int t = asked >= 0 ? -1 : 0; t < tries; t++) {
        const int depth = t < 0 ? (int)asked : spread_tries[t][0];
        const int lag = asked_lag ? (int)asked_lag
                        : t < 0   ? SPREAD_LAG
                                  : spread_tries[t][1];
        const long least = depth > SPREAD_LEAST_ROWS ? depth : SPREAD_LEAST_ROWS;
        const long blocks = blocks_of(ly, sms, least);
        if (blocks < 2 || ly / blocks < least)
            continue;
        const spread_plan p = shape_of((int)blocks, depth, lag, lx, ly, value_size);
        if (p.shared_bytes <= shared)
            return p;
    }
    return spread_plan{};
}

/* The kernel that runs plan p. */
template <typename T> static void (*kernel_of(const spread_plan &p))(spread_args<T>)
{
    if (p.unroll == 3)
        return p.depth > 0 ? spread_loop<T, true, 3> : spread_loop<T, false, 3>;
    return p.depth > 0 ? spread_loop<T, true, 4> : spread_loop<T, false, 4>;
}

template <typename T>
static cudaError_t plan_of(const sweep_launch *tile, spread_plan *plan)
{
    *plan = spread_plan{};
    int device = 0, sms = 0, shared_most = 0, cooperative = 0;
    cudaError_t rc = cudaGetDevice(&device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(&shared_most, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                    device);
    if (rc != cudaSuccess || !cooperative || sms < 2 || tile->lx < 3 || tile->ly < 3)
        return rc;
    cudaFuncAttributes attributes;
    rc = cudaFuncGetAttributes(&attributes, spread_loop<T, true, 4>);
    if (rc != cudaSuccess || attributes.sharedSizeBytes >= (size_t)shared_most)
        return rc;
    const spread_plan p = first_fit(tile->lx, tile->ly, sms,
                                    shared_most - attributes.sharedSizeBytes, sizeof(T));
    if (p.blocks == 0)
        return cudaSuccess;
    rc =
        cudaFuncSetAttribute(kernel_of<T>(p), cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)p.shared_bytes);
    int per_sm = 0;
    if (rc == cudaSuccess)
        rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, kernel_of<T>(p), p.threads_x * p.threads_y + 32, p.shared_bytes);
    if (rc == cudaSuccess && (long)per_sm * sms >= p.blocks)
        *plan = p;
    return rc;
}

template <typename T>
static cudaError_t launch(const spread_plan &p, const sweep_launch *tile, void *field0,
                          void *field1, long batch, stop_state *state, double *norms,
                          stop_rule rule, void *meeting, cudaStream_t stream)
{
    spread_args<T> a;
    a.field[0] = (T *)field0;
    a.field[1] = (T *)field1;
    a.lx = tile->lx;
    a.ly = tile->ly;
    a.rows = p.rows;
    a.blocks = p.blocks;
    a.depth = p.depth;
    a.fields = p.fields;
    a.threads_x = p.threads_x;
    a.threads_y = p.threads_y;
    a.batch = batch;
    a.state = state;
    a.norms = norms;
    a.rule = rule;
    a.square_scale = (T)update_rule_square_scale(&tile->rule);
    a.meeting = (unsigned char *)meeting;
    cudaError_t rc =
        cudaFuncSetAttribute(kernel_of<T>(p), cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)p.shared_bytes);
    if (rc != cudaSuccess)
        return rc;
    cudaLaunchAttribute cooperative;
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned)p.blocks);
    config.blockDim = dim3((unsigned)(p.threads_x * p.threads_y + 32));
    config.dynamicSmemBytes = p.shared_bytes;
    config.stream = stream;
    config.attrs = &cooperative;
    config.numAttrs = 1;
    rc = cudaLaunchKernelEx(&config, kernel_of<T>(p), a);
    return rc != cudaSuccess ? rc : cudaGetLastError();
}

extern "C" cudaError_t laplace_spread_plan(const struct sweep_launch *tile,
                                           struct spread_plan *plan)
{
    if (tile->precision == PRECISION_FLOAT)
        return plan_of<float>(tile, plan);
    return plan_of<double>(tile, plan);
}

extern "C" cudaError_t laplace_spread_loop(const struct spread_plan *plan,
                                           const struct sweep_launch *tile, void *field0,
                                           void *field1, long batch,
                                           struct stop_state *state, double *norms,
                                           struct stop_rule rule, void *meeting,
                                           cudaStream_t stream)
{
    if (tile->precision == PRECISION_FLOAT)
        return launch<float>(*plan, tile, field0, field1, batch, state, norms, rule,
                             meeting, stream);
    return launch<double>(*plan, tile, field0, field1, batch, state, norms, rule, meeting,
                          stream);
}
