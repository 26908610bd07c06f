/*
 * laplace_spread.cu - the loop on chip spread over the multiprocessors
 * (laplace_spread.h): a lone tile whose fields fit in the shared memory of the whole
 * GPU, not of one cluster, runs all its iterations in one resident launch.
 *
 *   block B-1   | strip B-1: fields k, k-1, k-2 in shared memory | deciding warp
 *       ...     |    ^ v  edge rows of each iteration, tagged    |
 *   block b     | strip b   (through global memory: L2)          | deciding warp
 *       ...     |    ^ v                                         |
 *   block 0     | strip 0                                        | deciding warp
 *
 * Every iteration k, the sweeping threads of block b:
 *   1. sweep the strip's first and last rows (field (k-1) % 3 into field k % 3, in
 *      shared memory), taking each outer neighbour from the edge row that the block
 *      below or above published for k - 1 once its tag says k - 1, and publish their
 *      own new edge rows, tagged k;
 *   2. sweep the rows of their strip that read no other strip, while the
 *      neighbours take those edge rows;
 *   3. thread 0 waits for the block's deciding warp to have decided k - 2: a stop
 *      there leaves its field whole in field (k - 2) % 3, and ends the loop (after
 *      the block's barrier) before k + 1 writes it;
 *   4. after the barrier, warp 0 publishes the strip's norm sum of k, tagged k.
 * The deciding warp of every block takes every block's sum of k once its tag says k,
 * adds the B sums in one fixed order (lane l blocks l, l + 32, ..., then the lanes
 * pairwise; in double) and takes the stop decision of k (stop_rule.h): the same sums
 * in the same order, so the same decision in every block, taken while its sweepers
 * go on with k + 1 and k + 2. No barrier of the whole
 * grid and no fence: a value and its tag travel in one 8-byte word, and sweepers wait
 * only for their two neighbours' values. The launch is cooperative, so every block is
 * resident at once and the waits cannot deadlock.
 */
#include "kernels/laplace_spread.h"

#include <stdlib.h>

#include "kernels/laplace_sites.cuh"
#include "kernels/laplace_tagged.cuh" /* word, put, take_both */

/* The most threads a block has: its sweepers and one warp. Measured on an H100, double,
 * 1024^2: 5.8 us an iteration with 512 sweepers, 7.2 with 992 (results/2026-11-26-spread,
 * probe-5), whose limit of 64 registers a thread spilled 264 bytes (512: 96 registers,
 * 28 bytes). */
#define SPREAD_THREADS 544
#define SPREAD_SWEEPERS (SPREAD_THREADS - 32)
/* A strip has at least this many rows (step 1 sweeps its first and last, step 2 the
 * rest), and a block at least about SPREAD_BLOCK_THREADS sweeping threads (a thread a
 * column, rows of threads until there are at least that many). */
#define SPREAD_LEAST_ROWS 2
#define SPREAD_BLOCK_THREADS 512
#define SPREAD_FIELDS 3 /* iteration k in field k % 3 of a strip */
/* Block b's sum of iteration k is kept at [k % SPREAD_SUM_SLOTS][b] until every
 * deciding warp has read it: a block writing k has seen its decision of k - 2, so every
 * block had published k - 2, after seeing its own decision of k - 4; every deciding
 * warp has read the sums up to k - 4, and 8 slots (5 would do) are never overwritten
 * unread. A strip's edge rows need only 2 slots (by parity): the thread that writes
 * column x of iteration k has just taken the neighbour's column x of k - 1, which
 * that neighbour computed from this strip's column x of k - 2, so the slot of k - 2 is
 * read before it is written again. That holds because the same thread of a block
 * handles the same columns every iteration (sweep_edges); keep it so. */
#define SPREAD_SUM_SLOTS 8
#define SPREAD_MOST_BLOCKS 256 /* lane_sum's registers: 8 blocks a lane */

/* Where the blocks meet, in global memory (zeroed before a run): tagged words. */
struct meeting {
    word *sums;  /* [8][B]: block b's norm sum of iteration k at [k % 8][b] */
    word *edges; /* [2][B][2][lx]: block b's first and last rows of iteration k at
                    [k % 2][b] */
};

static __host__ __device__ size_t edges_offset(long blocks)
{
    return SPREAD_SUM_SLOTS * (size_t)blocks * 2 * sizeof(word);
}

/* Everything the spread loop is given. */
template <typename T> struct spread_args {
    T *field[2]; /* global memory: read at the start, written back at the end */
    long lx, ly;
    long rows; /* the most rows of a strip: the stride between a block's fields */
    long blocks;
    int threads_x, threads_y; /* the sweeping threads of a block */
    long batch;
    stop_state *state;
    double *norms;
    stop_rule rule;
    T square_scale;
    unsigned char *meeting;
};

template <typename T> __device__ static meeting meeting_of(const spread_args<T> &a)
{
    meeting m;
    m.sums = reinterpret_cast<word *>(a.meeting);
    m.edges = reinterpret_cast<word *>(a.meeting + edges_offset(a.blocks));
    return m;
}

/* Block b's sum of iteration k. */
template <typename T>
__device__ __forceinline__ word *sum_of(const spread_args<T> &a, const meeting &m, long b,
                                        long k)
{
    return m.sums + ((k % SPREAD_SUM_SLOTS) * a.blocks + b) * words_of<double>::count;
}

/* Block b's edge row of iteration k (side 0: its first row, 1: its last). */
template <typename T>
__device__ __forceinline__ word *edge_row(const spread_args<T> &a, const meeting &m,
                                          long b, int side, long k)
{
    return m.edges + (((k & 1) * a.blocks + b) * 2 + side) * a.lx * words_of<T>::count;
}

/* The sweeping threads of a block meet (barrier 1, which the deciding warp does not
 * join; not .aligned: thread 0 may arrive after the other lanes of its warp). */
__device__ __forceinline__ void sweepers_meet(int sweepers)
{
    __syncwarp();
    asm volatile("barrier.sync 1, %0;" ::"r"(sweepers) : "memory");
}

/* What one sweeping thread holds and sees: its block's strip and its place. */
template <typename T> struct strip {
    T *field[SPREAD_FIELDS]; /* the strip's rows of iterations k % 3, in shared memory */
    long b, y0, rows;
    long first, last; /* the rows it updates: first .. last - 1 */
    int tx, ty;       /* the thread's column and row among threads_x x threads_y */
};

template <typename T>
__device__ static strip<T> strip_of(const spread_args<T> &a, T *shared)
{
    strip<T> s;
    s.b = blockIdx.x;
    s.y0 = s.b * a.ly / a.blocks;
    s.rows = (s.b + 1) * a.ly / a.blocks - s.y0;
    for (int f = 0; f < SPREAD_FIELDS; f++)
        s.field[f] = shared + f * a.rows * a.lx;
    s.first = s.y0 == 0 ? 1 : 0;                          /* the lattice's bottom row */
    s.last = s.y0 + s.rows == a.ly ? s.rows - 1 : s.rows; /* and top row stay */
    s.tx = threadIdx.x % a.threads_x;
    s.ty = threadIdx.x / a.threads_x;
    return s;
}

/*
 * Updates site i = x + y lx of the strip from `in` into `out`, its south and north
 * values given; where the row is an edge row a neighbour reads, the new value is
 * published there too, tagged with iteration k. Returns the norm's term.
 */
template <typename T>
__device__ __forceinline__ double update(const spread_args<T> &a, const T *in, T *out,
                                         int i, T south, T north, word *edge, long k)
{
    const T v = jacobi(south, in[i - 1], in[i + 1], north);
    out[i] = v;
    if (edge)
        put(edge, v, k);
    return square_of(v - in[i], a.square_scale);
}

/*
 * Step 2: the rows that read only the strip's own rows (1 .. rows - 2). Thread
 * (tx, ty) walks up columns 1 + tx, 1 + tx + threads_x, ... through its segment ty of
 * those rows, carrying the south and centre values in registers.
 */
template <typename T>
__device__ static double sweep_inside(const spread_args<T> &a, const strip<T> &s,
                                      const T *in, T *out)
{
    const int lx = (int)a.lx;
    const int ya = 1; /* row 0 reads the strip below, or is the lattice's edge */
    const int yb = s.last < s.rows - 1 ? (int)s.last : (int)s.rows - 1;
    const int segment = (yb - ya + a.threads_y - 1) / a.threads_y;
    const int y0 = ya + s.ty * segment, y1 = min(yb, y0 + segment);
    double acc = 0.0;
    for (int x = 1 + s.tx; x < lx - 1 && y0 < y1; x += a.threads_x) {
        int i = y0 * lx + x;
        T south = in[i - lx], here = in[i];
        for (int y = y0; y < y1; y++, i += lx) {
            const T north = in[i + lx];
            const T v = jacobi(south, in[i - 1], in[i + 1], north);
            out[i] = v;
            acc += square_of(v - here, a.square_scale);
            south = here;
            here = north;
        }
    }
    return acc;
}

/*
 * Step 1: the strip's first and last rows, where they read another strip (row 0 of
 * thread row 0; the last row of thread row 1, or 0 if there is one): their outer
 * neighbours are the edge rows of iteration k - 1 that the blocks below and above
 * published, taken once their tags say k - 1; their new values are published for k.
 */
template <typename T>
__device__ static double sweep_edges(const spread_args<T> &a, const meeting &m,
                                     const strip<T> &s, long k, const T *in, T *out)
{
    const int n = words_of<T>::count;
    const bool low = s.ty == 0 && s.first == 0;
    const bool high = s.ty == (a.threads_y > 1 ? 1 : 0) && s.last == s.rows;
    if (!low && !high)
        return 0.0;
    word *below = low ? edge_row(a, m, s.b - 1, 1, k - 1) : NULL;
    word *above = high ? edge_row(a, m, s.b + 1, 0, k - 1) : NULL;
    word *mine_low = edge_row(a, m, s.b, 0, k), *mine_high = edge_row(a, m, s.b, 1, k);
    const int lx = (int)a.lx, top = ((int)s.rows - 1) * lx;
    double acc = 0.0;
    for (int x = 1 + s.tx; x < lx - 1; x += a.threads_x) {
        T south, north;
        take_both(below ? below + x * n : NULL, above ? above + x * n : NULL, k - 1,
                  &south, &north);
        if (low)
            acc += update(a, in, out, x, south, in[lx + x], mine_low + x * n, k);
        if (high)
            acc += update(a, in, out, top + x, in[top - lx + x], north, mine_high + x * n,
                          k);
    }
    return acc;
}

/* The lap's start: field[k % 2] (global memory, iteration k) into every field of the
 * strip, so that each holds the lattice's fixed edge sites. */
template <typename T>
__device__ static void load_strip(const spread_args<T> &a, const strip<T> &s, long k,
                                  int sweepers)
{
    const long n = s.rows * a.lx;
    const T *global = a.field[k & 1] + s.y0 * a.lx;
    for (long i = threadIdx.x; i < n; i += sweepers) {
        const T v = global[i];
        for (int f = 0; f < SPREAD_FIELDS; f++)
            s.field[f][i] = v;
    }
}

/* The lap's end: the strip of iteration k into field[k % 2] (global memory). */
template <typename T>
__device__ static void store_strip(const spread_args<T> &a, const strip<T> &s, long k,
                                   int threads)
{
    const long n = s.rows * a.lx;
    T *global = a.field[k & 1] + s.y0 * a.lx;
    const T *mine = s.field[k % SPREAD_FIELDS];
    for (long i = threadIdx.x; i < n; i += threads)
        global[i] = mine[i];
}

/* The lap's start: the strip's edge rows of iteration k, for the neighbours' first
 * iteration (the same words the previous lap's last iteration stored, if any). */
template <typename T>
__device__ static void publish_start(const spread_args<T> &a, const meeting &m,
                                     const strip<T> &s, long k, int sweepers)
{
    const T *in = s.field[k % SPREAD_FIELDS];
    const int n = words_of<T>::count;
    for (long x = threadIdx.x; x < a.lx; x += sweepers) {
        put(edge_row(a, m, s.b, 0, k) + x * n, in[x], k);
        put(edge_row(a, m, s.b, 1, k) + x * n, in[(s.rows - 1) * a.lx + x], k);
    }
}

/* The sum of v over the 32 lanes of a warp in a fixed tree order, in lane 0. */
__device__ __forceinline__ double warp_total(double v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

/* What the deciding warp tells the sweepers of its block, in shared memory; read and
 * written by atomic operations (racecheck follows them as such), the final iteration
 * after the block's last barrier. */
struct decisions {
    unsigned long long decided; /* the last iteration decided (tell, stopped_by) */
    unsigned long long stop_at; /* the iteration the loop stopped at; 0: none */
    long final;                 /* the iteration whose field the lap ends with */
};

/* The deciding warp's lane 0 tells its block: the stop first, then that k is decided
 * (fenced: a thread that sees k decided sees the stop too). */
__device__ __forceinline__ void tell(decisions *d, long k, bool stop)
{
    if (stop)
        atomicExch(&d->stop_at, (unsigned long long)k);
    __threadfence_block();
    atomicExch(&d->decided, (unsigned long long)k);
}

/* Thread 0 of the sweepers waits until k is decided; whether the loop stopped at or
 * before k. */
__device__ __forceinline__ bool stopped_by(decisions *d, long k)
{
    while ((long)atomicAdd(&d->decided, 0ull) < k) {
    }
    __threadfence_block();
    const unsigned long long stop = atomicAdd(&d->stop_at, 0ull);
    return stop > 0 && (long)stop <= k;
}

/*
 * The sweeping threads' loop: iteration k sweeps field (k - 1) % 3 into k % 3;
 * thread 0 waits (in shared memory) for the decision of k - 2, which field (k + 1) % 3
 * still holds, and after the block's barrier warp 0 publishes the strip's sum of k: a
 * stop at k - 2 ends the loop before k + 1 overwrites its field. Every block ends at the
 * same iteration, so no block waits for an edge row of a block that has left.
 */
template <typename T>
__device__ static void sweep_loop(const spread_args<T> &a, const meeting &m,
                                  const strip<T> &s, decisions *d, long start, long batch)
{
    __shared__ double warp_sums[2][32]; /* of iterations of each parity */
    __shared__ bool stop_seen[2];       /* thread 0 saw the stop by then, likewise */
    const int sweepers = a.threads_x * a.threads_y, warps = sweepers / 32;
    long since_check = start % a.rule.check_every;
    load_strip(a, s, start, sweepers);
    sweepers_meet(sweepers);
    publish_start(a, m, s, start, sweepers);
    for (long j = 0; j < batch; j++) {
        const long k = start + j + 1;
        const T *in = s.field[(k - 1) % SPREAD_FIELDS];
        T *out = s.field[k % SPREAD_FIELDS];
        /* the edge rows first, so that the neighbours have them while this strip
         * sweeps its inside */
        double v = sweep_edges(a, m, s, k, in, out);
        v += sweep_inside(a, s, in, out);
        since_check = since_check + 1 == a.rule.check_every ? 0 : since_check + 1;
        const bool check = since_check == 0 || k == a.rule.max_iter; /* wants_norm */
        v = check ? warp_total(v) : 0.0;
        if ((threadIdx.x & 31) == 0)
            warp_sums[k & 1][threadIdx.x / 32] = v;
        if (threadIdx.x == 0)
            stop_seen[k & 1] = stopped_by(d, k - 2);
        sweepers_meet(sweepers); /* the strip's new rows, its warps' sums, the stop */
        if (threadIdx.x < 32) {  /* warp 0 adds the warps' sums in warp_total's order */
            const double total =
                warp_total(threadIdx.x < warps ? warp_sums[k & 1][threadIdx.x] : 0.0);
            if (threadIdx.x == 0)
                put(sum_of(a, m, s.b, k), total, k);
        }
        if (stop_seen[k & 1])
            break; /* at k = stop + 2 in every block: none waits for a block gone */
    }
}

/* Lane l's part of the B sums of k: blocks l, l + 32, ... added in that order, once
 * every one is there (all their loads out at once: one trip to memory). */
template <typename T>
__device__ static double lane_sum(const spread_args<T> &a, const meeting &m, long k,
                                  int lane)
{
    const int per = SPREAD_MOST_BLOCKS / 32;
    word w[SPREAD_MOST_BLOCKS / 32][2];
    bool there;
    do {
        there = true;
#pragma unroll
        for (int i = 0; i < per; i++)
            if (lane + 32 * i < a.blocks)
                for (int h = 0; h < 2; h++)
                    w[i][h] = load_word(sum_of(a, m, lane + 32 * i, k) + h);
#pragma unroll
        for (int i = 0; i < per; i++)
            if (lane + 32 * i < a.blocks)
                there = there && (tag)(w[i][0] >> 32) == tag_of(k) &&
                        (tag)(w[i][1] >> 32) == tag_of(k);
    } while (!there);
    double t = 0.0;
#pragma unroll
    for (int i = 0; i < per; i++)
        if (lane + 32 * i < a.blocks) {
            const unsigned halves[2] = {(unsigned)w[i][0], (unsigned)w[i][1]};
            double v;
            memcpy(&v, halves, sizeof v);
            t += v;
        }
    return t;
}

/*
 * The deciding warp's loop: once every block's sum of k is there, adds them in block
 * order (lane l adds blocks l, l + 32, ..., then the lanes in warp_total's order, in
 * double), takes the stop decision of k (stop_rule.h), the same in every block, and
 * tells the sweepers. Block 0's also keeps the norms and the state.
 */
template <typename T>
__device__ static void decide_loop(const spread_args<T> &a, const meeting &m,
                                   decisions *d, stop_state mine, long batch)
{
    const int lane = threadIdx.x & 31;
    const long start = mine.iteration;
    for (long j = 0; j < batch; j++) {
        const long k = start + j + 1;
        const double t = warp_total(lane_sum(a, m, k, lane));
        int stop = 0;
        if (lane == 0) {
            const bool check = stop_rule_wants_norm(&a.rule, k);
            const double norm = check ? stop_rule_norm(&a.rule, t) : NAN;
            if (check && blockIdx.x == 0)
                a.norms[j] = norm;
            stop = stop_state_step(&a.rule, &mine, k, check, norm);
            tell(d, k, stop);
        }
        if (__shfl_sync(0xffffffffu, stop, 0))
            break;
    }
    if (lane == 0) {
        d->final = mine.iteration;
        if (blockIdx.x == 0)
            *a.state = mine;
    }
}

template <typename T>
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
        sweep_loop(a, m, s, &d, begin.iteration, batch);
    else
        decide_loop(a, m, &d, begin, batch);
    __syncthreads(); /* the decisions are all taken */
    store_strip(a, s, d.final, blockDim.x);
}

/* For tuning experiments: LAPLACE_SPREAD_BLOCKS (2 ... the multiprocessors) replaces
 * the choice of the blocks, LAPLACE_SPREAD_THREADS (32 ... 512) SPREAD_BLOCK_THREADS;
 * 0 when unset or out of range. */
static long tuning(const char *name, long least, long most)
{
    const char *text = getenv(name);
    const long v = text ? atol(text) : 0;
    return v >= least && v <= most ? v : 0;
}

/* The shape of `blocks` strips over the tile, its shared memory not yet checked. */
static spread_plan shape_of(int blocks, long lx, long ly, size_t value_size)
{
    spread_plan p = {};
    p.blocks = blocks;
    p.rows = (ly + blocks - 1) / blocks;
    p.shared_bytes = SPREAD_FIELDS * (size_t)p.rows * (size_t)lx * value_size;
    const size_t edge_words = 2 * (size_t)blocks * 2 * (size_t)lx * (value_size / 4);
    p.meeting_bytes = edges_offset(blocks) + edge_words * sizeof(word);
    const long least = tuning("LAPLACE_SPREAD_THREADS", 32, SPREAD_SWEEPERS);
    strip_threads(lx, p.rows, least ? least : SPREAD_BLOCK_THREADS, SPREAD_SWEEPERS,
                  &p.threads_x, &p.threads_y);
    return p;
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
    long blocks = tile->ly / SPREAD_LEAST_ROWS < sms ? tile->ly / SPREAD_LEAST_ROWS : sms;
    blocks = blocks < SPREAD_MOST_BLOCKS ? blocks : SPREAD_MOST_BLOCKS;
    const long forced = tuning("LAPLACE_SPREAD_BLOCKS", 2, blocks);
    if (forced && tile->ly / forced >= SPREAD_LEAST_ROWS)
        blocks = forced;
    if (blocks < 2)
        return cudaSuccess;
    const spread_plan p = shape_of((int)blocks, tile->lx, tile->ly, sizeof(T));
    cudaFuncAttributes attributes;
    rc = cudaFuncGetAttributes(&attributes, spread_loop<T>);
    if (rc != cudaSuccess ||
        p.shared_bytes + attributes.sharedSizeBytes > (size_t)shared_most)
        return rc;
    rc = cudaFuncSetAttribute(spread_loop<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)p.shared_bytes);
    int per_sm = 0;
    if (rc == cudaSuccess)
        rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, spread_loop<T>, p.threads_x * p.threads_y + 32, p.shared_bytes);
    if (rc == cudaSuccess && (long)per_sm * sms >= blocks)
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
    a.threads_x = p.threads_x;
    a.threads_y = p.threads_y;
    a.batch = batch;
    a.state = state;
    a.norms = norms;
    a.rule = rule;
    a.square_scale = (T)update_rule_square_scale(&tile->rule);
    a.meeting = (unsigned char *)meeting;
    cudaError_t rc = cudaFuncSetAttribute(
        spread_loop<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p.shared_bytes);
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
    rc = cudaLaunchKernelEx(&config, spread_loop<T>, a);
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
