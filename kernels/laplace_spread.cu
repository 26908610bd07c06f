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
 * In rounds of SPREAD_DEPTH on strips of at most 4 rows, on a tile at most
 * SPREAD_SWEEPERS + 2 columns wide (the course problem's 512^2 among them), each
 * sweeping thread holds its column of them in registers instead, every row index known
 * when compiled (laplace_spread_columns.cuh), and shared memory only the own rows of the
 * last F iterations: the same rounds, bits and decisions, at about 70% of the time.
 * The deciding warp of every block (laplace_spread_decide.cuh) takes every block's sum
 * of k once its tag says k, adds the B sums in one fixed order (lane l blocks l, l + 32,
 * ..., then the lanes pairwise; in double) and takes the stop decision of k
 * (stop_rule.h): the same sums in the same order, so the same decision in every block,
 * taken while its sweepers go on. No barrier of the whole grid and no fence: a value and
 * its tag travel in one 8-byte word, and sweepers wait only for their two neighbours'
 * values. The launch is cooperative, so every block is resident at once and the waits
 * cannot deadlock.
 *
 * Over several GPUs (tiles stacked in rows, a GPU each: struct spread_band), each GPU
 * launches its band of the strips and the bands are one loop: block numbers count over
 * every GPU, a block's sum goes into every GPU's meeting and a band's end rows also into
 * the meeting of the GPU beside it, so that every wait reads its own GPU's memory and
 * every GPU's deciding warps take the same decisions. Those words travel at the scope
 * of the system; the kernels are compiled apart for it (A), so that a lone tile's loop
 * keeps the GPU's scope and none of the bands' stores. A wait for another GPU's words
 * gives up once the host raised the tile's stop word (laplace_tagged.cuh's patience).
 */
#include "kernels/laplace_spread.h"

#include <stdlib.h>

#include "kernels/laplace_spread_columns.cuh" /* the sweep of columns in registers */
#include "kernels/laplace_spread_decide.cuh"  /* the deciding warp: decide_loop */
#include "kernels/laplace_spread_fields.cuh"  /* the sweep of fields in shared memory */
#include "kernels/laplace_spread_meeting.cuh" /* spread_args, meeting, edge_depth */
#include "kernels/laplace_spread_strip.cuh"   /* the sizes, strip_of */
#include "support/tuning.h"

/* A lap's start in every thread of a block: the deciding warp's record of what was
 * decided starts at the state's iteration, and the block has not given up waiting
 * (laplace_tagged.cuh's gave_up). Returns the lap's iterations (0 once the state has
 * stopped). */
__device__ static long begin_lap(const stop_state &begin, long batch, decisions *d)
{
    if (threadIdx.x == 0) {
        d->decided = (unsigned long long)begin.iteration;
        gave_up = 0;
    }
    __syncthreads();
    return begin.stopped ? 0 : batch;
}

/* The loop with the fields in shared memory, with halos (depth > 0) or without (HALOS
 * false: depth 0), compiled apart so that neither pays for the other's tests, its
 * columns walked UNROLL rows at a time. */
template <typename T, bool HALOS, int UNROLL, bool A>
__global__ void __launch_bounds__(SPREAD_THREADS, 1) spread_loop(spread_args<T, A> a)
{
    extern __shared__ unsigned char spread_bytes[];
    __shared__ decisions d;
    const meeting m = meeting_of(a);
    const strip<T> s = strip_of(a, reinterpret_cast<T *>(spread_bytes), field_size(a));
    const stop_state begin = *a.state;
    const long batch = begin_lap(begin, a.batch, &d);
    if ((int)threadIdx.x < a.threads_x * a.threads_y)
        sweep_loop<HALOS, UNROLL>(a, m, s, &d, begin.iteration, batch);
    else
        decide_loop(a, m, &d, begin, batch);
    __syncthreads(); /* the decisions are all taken */
    store_strip(a, s, d.final, blockDim.x);
}

/* The loop with the columns in registers and the ring of own rows in shared memory. */
template <typename T, bool A>
__global__ void __launch_bounds__(SPREAD_THREADS, 1) spread_columns(spread_args<T, A> a)
{
    extern __shared__ unsigned char spread_bytes[];
    __shared__ decisions d;
    const meeting m = meeting_of(a);
    const strip<T> s = strip_of(a, reinterpret_cast<T *>(spread_bytes), a.rows * a.lx);
    const stop_state begin = *a.state;
    const long batch = begin_lap(begin, a.batch, &d);
    if ((int)threadIdx.x < a.threads_x)
        strip_column_loop(a, m, s, &d, begin.iteration, batch);
    else
        decide_loop(a, m, &d, begin, batch);
    __syncthreads(); /* the decisions are all taken */
    store_rows(a, s, d.final, s.shared + (d.final % a.fields) * s.size, blockDim.x);
}

/* For tuning experiments and the GPU suite, LAPLACE_TUNE's knobs (support/tuning.h),
 * each TUNING_AUTO unless set: spread_blocks replaces the choice of the blocks (more
 * than the plan's are taken as the plan's), spread_unroll unroll_of (the fields in
 * shared memory). (spread_depth, spread_lag and spread_columns are the loop plan's.) */

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

/* Whether the loop of columns in registers (laplace_spread_columns.cuh) can take plan
 * p's strips: a thread a column, rounds of SPREAD_DEPTH, and a column's rows with their
 * halos in SPREAD_COLUMN_ROWS. */
static bool columns_take(const spread_plan &p, long lx)
{
    return p.depth == SPREAD_DEPTH && lx - 2 <= SPREAD_SWEEPERS &&
           p.rows + 2 * p.depth <= SPREAD_COLUMN_ROWS;
}

/* The shape of `blocks` strips with halos `depth` rows deep over the tile, in depth +
 * lag fields, each thread's column in registers where `columns` and the columns loop
 * can take them, else the fields in shared memory; its shared memory not yet checked. */
static spread_plan shape_of(int blocks, int depth, int lag, long lx, long ly,
                            size_t value_size, const tuning &tune, bool columns)
{
    spread_plan p = {};
    p.blocks = blocks;
    p.depth = depth;
    p.fields = edge_depth(depth) + lag;
    p.rows = (ly + blocks - 1) / blocks;
    p.unroll = tune.spread_unroll != TUNING_AUTO ? tune.spread_unroll
                                                 : unroll_of(p.rows, value_size);
    p.shared_bytes =
        (size_t)p.fields * (size_t)(p.rows + 2 * depth) * (size_t)lx * value_size;
    if (columns && columns_take(p, lx)) { /* a thread a column of the interior; ring */
        p.columns = 1;
        p.threads_x = (int)((lx - 2 + 31) / 32 * 32);
        p.threads_y = 1;
        p.shared_bytes = (size_t)p.fields * (size_t)p.rows * (size_t)lx * value_size;
        return p;
    }
    strip_threads(lx, p.rows + 2 * (depth > 0 ? depth - 1 : 0), SPREAD_BLOCK_THREADS,
                  SPREAD_SWEEPERS, &p.threads_x, &p.threads_y);
    return p;
}

/* How many strips of at least `least` rows: one a multiprocessor (at most
 * SPREAD_MOST_BLOCKS), or as asked. */
static long blocks_of(long ly, int sms, long least, int asked)
{
    long blocks = ly / least < sms ? ly / least : sms;
    blocks = blocks < SPREAD_MOST_BLOCKS ? blocks : SPREAD_MOST_BLOCKS;
    return asked != TUNING_AUTO && asked <= blocks ? asked : blocks;
}

/* The strips of `depth` and `lag` (laplace_spread_plan), each thread's column in
 * registers or (columns false) the fields in shared memory: possible where they can be
 * laid, at least `least` rows each, and the columns loop takes them; blocks 0 where
 * not, or where their shared memory does not fit in what their kernel leaves of a
 * block's (room[1] with the columns in registers, else room[0]). */
static spread_plan fit_of(long lx, long ly, int sms, const size_t room[2],
                          size_t value_size, const tuning &tune, int depth, int lag,
                          bool columns)
{
    const long least = depth > SPREAD_LEAST_ROWS ? depth : SPREAD_LEAST_ROWS;
    const long blocks = blocks_of(ly, sms, least, tune.spread_blocks);
    if (blocks < 2 || ly / blocks < least)
        return spread_plan{};
    spread_plan p = shape_of((int)blocks, depth, lag, lx, ly, value_size, tune, columns);
    if (columns && !p.columns)
        return spread_plan{};
    p.possible = 1;
    if (p.shared_bytes > room[p.columns])
        p.blocks = 0;
    return p;
}

/* The kernel that runs plan p, for a lone tile or (A) a band of several GPUs' loop. */
template <typename T, bool A>
static void (*kernel_of(const spread_plan &p))(spread_args<T, A>)
{
    if (p.columns)
        return spread_columns<T, A>;
    if (p.unroll == 3)
        return p.depth > 0 ? spread_loop<T, true, 3, A> : spread_loop<T, false, 3, A>;
    return p.depth > 0 ? spread_loop<T, true, 4, A> : spread_loop<T, false, 4, A>;
}

/* The blocks of plan p's kernel k a multiprocessor keeps resident at once. */
template <typename K>
static cudaError_t resident_blocks(K k, const spread_plan &p, int *per_sm)
{
    cudaError_t rc = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)p.shared_bytes);
    if (rc == cudaSuccess)
        rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            per_sm, k, p.threads_x * p.threads_y + 32, p.shared_bytes);
    return rc;
}

template <typename T>
static cudaError_t plan_of(const sweep_launch *tile, const tuning &tune, int depth,
                           int lag, bool columns, spread_plan *plan)
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
    cudaFuncAttributes of_fields, of_columns; /* the kernels' static shared memory */
    rc = cudaFuncGetAttributes(&of_fields, spread_loop<T, true, 4, false>);
    if (rc == cudaSuccess)
        rc = cudaFuncGetAttributes(&of_columns, spread_columns<T, false>);
    if (rc != cudaSuccess)
        return rc;
    const size_t most = (size_t)shared_most;
    const size_t room[2] = {most - min(most, of_fields.sharedSizeBytes),
                            most - min(most, of_columns.sharedSizeBytes)};
    spread_plan p =
        fit_of(tile->lx, tile->ly, sms, room, sizeof(T), tune, depth, lag, columns);
    if (p.blocks == 0) {
        *plan = p;
        return cudaSuccess;
    }
    int per_sm = 0, per_sm_band = 0; /* a lone tile's kernel, and a band's */
    rc = resident_blocks(kernel_of<T, false>(p), p, &per_sm);
    if (rc == cudaSuccess)
        rc = resident_blocks(kernel_of<T, true>(p), p, &per_sm_band);
    per_sm = per_sm < per_sm_band ? per_sm : per_sm_band;
    p.resident = rc == cudaSuccess && (long)per_sm * sms >= p.blocks;
    if (rc == cudaSuccess)
        *plan = p;
    return rc;
}

/* The band's part of the args: where its strips lie and where the GPUs meet. */
template <typename T, bool A>
static void place_band(const spread_band &band, const sweep_launch *tile,
                       spread_args<T, A> *a)
{
    a->ly = band.lattice_rows;
    a->row0 = band.row0;
    a->tile_rows = tile->ly;
    a->first = band.first_block;
    a->blocks = band.all_blocks;
    a->gpus = band.gpus;
    a->gpu = band.gpu;
    for (int g = 0; g < SPREAD_MOST_GPUS; g++)
        a->meetings[g] = (unsigned char *)band.meetings[g];
    for (int i = 0; i < 2; i++) {
        a->south[i] = (const T *)band.south[i];
        a->north[i] = (const T *)band.north[i];
    }
    a->wait = patience{band.stop};
}

template <typename T, bool A>
static cudaError_t launch(const spread_plan &p, const sweep_launch *tile, void *field0,
                          void *field1, long batch, stop_state *state, double *norms,
                          stop_rule stop_rule, const spread_band &band,
                          cudaStream_t stream)
{
    spread_args<T, A> a = {};
    a.field[0] = (T *)field0;
    a.field[1] = (T *)field1;
    a.lx = tile->lx;
    place_band(band, tile, &a);
    a.rows = p.rows;
    a.band = p.blocks;
    a.depth = p.depth;
    a.fields = p.fields;
    a.threads_x = p.threads_x;
    a.threads_y = p.threads_y;
    a.batch = batch;
    a.state = state;
    a.norms = norms;
    a.stop_rule = stop_rule;
    a.square_scale = (T)update_rule_square_scale(&tile->update_rule);
    cudaError_t rc = cudaFuncSetAttribute(kernel_of<T, A>(p),
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
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
    rc = cudaLaunchKernelEx(&config, kernel_of<T, A>(p), a);
    return rc != cudaSuccess ? rc : cudaGetLastError();
}

extern "C" cudaError_t laplace_spread_plan(const struct sweep_launch *tile,
                                           const struct tuning *tune, int depth, int lag,
                                           int columns, struct spread_plan *plan)
{
    if (tile->precision == PRECISION_FLOAT)
        return plan_of<float>(tile, *tune, depth, lag, columns != 0, plan);
    return plan_of<double>(tile, *tune, depth, lag, columns != 0, plan);
}

extern "C" size_t laplace_spread_meeting_bytes(const struct spread_plan *plan, long lx,
                                               size_t value_size, long all_blocks)
{
    const size_t edge_words = 2 * (size_t)all_blocks * 2 *
                              (size_t)edge_depth(plan->depth) * (size_t)lx *
                              (value_size / 4);
    return edges_offset(all_blocks) + edge_words * sizeof(word);
}

extern "C" struct spread_band laplace_spread_alone(const struct spread_plan *plan,
                                                   long ly, void *meeting)
{
    struct spread_band band = {};
    band.gpus = 1;
    band.all_blocks = plan->blocks;
    band.lattice_rows = ly;
    band.meetings[0] = meeting;
    return band;
}

extern "C" cudaError_t
laplace_spread_loop(const struct spread_plan *plan, const struct sweep_launch *tile,
                    void *field0, void *field1, long batch, struct stop_state *state,
                    double *norms, struct stop_rule rule, const struct spread_band *band,
                    cudaStream_t stream)
{
    const bool across = band->gpus > 1;
    if (tile->precision == PRECISION_FLOAT)
        return across ? launch<float, true>(*plan, tile, field0, field1, batch, state,
                                            norms, rule, *band, stream)
                      : launch<float, false>(*plan, tile, field0, field1, batch, state,
                                             norms, rule, *band, stream);
    return across ? launch<double, true>(*plan, tile, field0, field1, batch, state, norms,
                                         rule, *band, stream)
                  : launch<double, false>(*plan, tile, field0, field1, batch, state,
                                          norms, rule, *band, stream);
}
