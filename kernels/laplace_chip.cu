/*
 * laplace_chip.cu - the loop on chip: a lone tile whose two fields fit in the
 * shared memory of one thread-block cluster runs all its iterations there, with
 * no global memory traffic and no host between them (laplace_chip.h).
 *
 * Block b of the cluster holds a strip of rows of both fields in its shared
 * memory; the rows just below and above its strip are read from the neighbouring
 * blocks' shared memory (distributed shared memory). Every iteration:
 *   1. each thread walks up its column segment, carrying the south and centre
 *      values in registers, and updates its sites as every kernel does
 *      (laplace_sites.cuh: same arithmetic, same bits);
 *   2. each warp adds its sites' norm terms in a fixed tree order (shuffles) and
 *      stores the sum into every block's shared memory, at its block's and
 *      warp's place;
 *   3. the cluster meets once (cluster.sync(): every strip's new rows and every
 *      warp's sum are then visible to every block);
 *   4. warp 0 of every block adds the sums in the same fixed order, in double,
 *      and its thread 0 takes the same stop decision (stop_rule.h) while the
 *      other warps sweep the next iteration; they read it after that
 *      iteration's barrier.
 *      A stop at k leaves field k whole (k + 1 wrote the other field) and k + 1
 *      is not counted: the decision lags one iteration, no block waits for it.
 * SOR meets once more, between its red and black half-sweeps.
 * Plain Jacobi meets once a round of several iterations instead, where its halos fit
 * (chip_rounds, laplace_chip_rounds.cuh); this file plans either and launches it.
 */
#include "kernels/laplace_chip.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/laplace_chip_meeting.cuh" /* chip_args, the sums */
#include "kernels/laplace_chip_rounds.cuh"  /* chip_rounds */
#include "kernels/laplace_sites.cuh"
#include "support/tuning.h"

/* A strip holds at least this many rows where it can (half as many for a wide lattice
 * whose strips would not fit otherwise: cluster_sizes), so that small lattices take
 * fewer blocks, and a block about CHIP_BLOCK_THREADS threads (a thread a column, rows
 * of threads until there are at least that many): every warp sends its sum to every
 * block, so fewer warps and blocks send fewer remote stores an iteration. Measured on an
 * H100, the norm every iteration (results/2026-11-25-chip-blocks): 128^2 float 2.05 us an
 * iteration with 8 blocks of 512 threads, 2.26 with 16 of 512, 2.78 with 16 of 1024
 * (the choice before); 256^2 float 2.47 with 512 threads, 2.86 with 1024; 512^2 3.86
 * and 3.92; 256 threads a block or fewer were slower from 256^2 on; a cap of 512 at
 * 384^2 (384 threads) and 640^2 (two columns for some threads) was slower than 768
 * and 640 threads. */
#define CHIP_LEAST_ROWS 16
#define CHIP_BLOCK_THREADS 512

/* What one block holds: its strip of both fields and views of its neighbours' edge
 * rows (NULL at the lattice's edge). */
template <typename T> struct strip {
    T *field[2];
    const T *below[2]; /* the last row of the block below */
    const T *above[2]; /* the first row of the block above */
    long y0, rows;     /* the strip's first lattice row, and its rows */
};

/* Field f of the strip, and the neighbours' edge rows of field f: chosen, not
 * indexed, so that the strip stays in registers and its loads are shared-memory
 * loads. */
template <typename T> __device__ __forceinline__ T *field_of(const strip<T> &s, int f)
{
    return f ? s.field[1] : s.field[0];
}
template <typename T>
__device__ __forceinline__ const T *below_of(const strip<T> &s, int f)
{
    return f ? s.below[1] : s.below[0];
}
template <typename T>
__device__ __forceinline__ const T *above_of(const strip<T> &s, int f)
{
    return f ? s.above[1] : s.above[0];
}

template <typename T>
__device__ static strip<T> strip_of(const chip_args<T> &a, cg::cluster_group &cluster,
                                    T *shared)
{
    const long b = cluster.block_rank(), blocks = cluster.num_blocks();
    strip<T> s;
    s.y0 = strip_start(b, blocks, a.ly);
    s.rows = strip_start(b + 1, blocks, a.ly) - s.y0;
    const long rows_below = b > 0 ? s.y0 - strip_start(b - 1, blocks, a.ly) : 0;
#pragma unroll
    for (int f = 0; f < 2; f++) {
        s.field[f] = shared + f * a.rows * a.lx;
        s.below[f] = b > 0 ? cluster.map_shared_rank(s.field[f], (unsigned)(b - 1)) +
                                 (rows_below - 1) * a.lx
                           : NULL;
        s.above[f] = b + 1 < blocks
                         ? cluster.map_shared_rank(s.field[f], (unsigned)(b + 1))
                         : NULL;
    }
    return s;
}

/* Row y of field f as the strip sees it: -1 and `rows` are the neighbours' edge rows. */
template <typename T>
__device__ __forceinline__ const T *row_of(const strip<T> &s, int f, long y, long lx)
{
    if (y < 0)
        return below_of(s, f);
    if (y >= s.rows)
        return above_of(s, f);
    return field_of(s, f) + y * lx;
}

/* Value x of row y, or 0 past the lattice's edge (never used there: those sites are
 * the boundary's and keep their value). */
template <typename T>
__device__ __forceinline__ T value_at(const strip<T> &s, int f, long y, long x, long lx)
{
    const T *row = row_of(s, f, y, lx);
    return row ? row[x] : T(0);
}

/*
 * One sweep of the strip by plain Jacobi: every interior site of rows ya..yb - 1
 * reads its neighbours from field `in` and writes field `out`. Thread i walks
 * columns 1 + i, 1 + i + threads_x, ... up the rows, carrying the south and centre
 * values in registers; the strip's top row takes its north value from the block
 * above. Returns the thread's norm terms.
 */
template <typename T>
__device__ static double sweep_plain(const chip_args<T> &a, const strip<T> &s, int in,
                                     int out, int ya, int yb)
{
    const int lx = (int)a.lx, rows = (int)s.rows;
    if (s.y0 == 0 && ya == 0)
        ya = 1; /* the lattice's bottom row keeps its value */
    if (s.y0 + rows == a.ly && yb == rows)
        yb = rows - 1; /* and its top row */
    const T scale = a.r.square_scale;
    double acc = 0.0;
    for (int x = 1 + threadIdx.x; x < lx - 1 && ya < yb; x += blockDim.x) {
        const T *row = field_of(s, in) + ya * lx + x;
        T *target = field_of(s, out) + ya * lx + x;
        T south = ya > 0 ? row[-lx] : below_of(s, in)[x], here = row[0];
        for (int y = ya; y < yb; y++, row += lx, target += lx) {
            const T north = y + 1 < rows ? row[lx] : above_of(s, in)[x];
            const T v = jacobi(south, row[-1], row[1], north);
            *target = v;
            acc += square_of(v - here, scale);
            south = here;
            here = north;
        }
    }
    return acc;
}

/*
 * The same for any rule: the sites of `colour` (-1: all) read their neighbours
 * from field `in` and their own old value from `own`. Values are loaded for the
 * sites updated only: in SOR's black half-sweep `in` is the field being written,
 * whose red sites alone are read.
 */
template <bool MAX, typename T>
__device__ static double sweep_rule(const chip_args<T> &a, const strip<T> &s, int in,
                                    int own, int out, int colour, long ya, long yb)
{
    rule_args<T> r = a.r;
    r.colour = colour;
    double acc = 0.0;
    for (long x = 1 + threadIdx.x; x < a.lx - 1; x += blockDim.x)
        for (long y = ya; y < yb; y++) {
            const long gy = s.y0 + y, i = x + gy * a.lx;
            if (gy == 0 || gy == a.ly - 1 || !rule_updates(r, i, x + gy))
                continue;
            const T *row = field_of(s, in) + y * a.lx;
            acc = combine<MAX>(acc,
                               rule_site(r, value_at(s, in, y - 1, x, a.lx), row[x - 1],
                                         row[x + 1], value_at(s, in, y + 1, x, a.lx), i,
                                         field_of(s, own)[y * a.lx + x],
                                         field_of(s, out) + y * a.lx + x));
        }
    return acc;
}

/* One half-sweep of the strip by thread (i, j): its j-th segment of the rows. */
template <bool PLAIN, bool MAX, typename T>
__device__ static double sweep_strip(const chip_args<T> &a, const strip<T> &s, int in,
                                     int own, int out, int colour)
{
    const long segment = (s.rows + blockDim.y - 1) / blockDim.y;
    const long ya = threadIdx.y * segment, yb = min(s.rows, ya + segment);
    if (PLAIN)
        return sweep_plain(a, s, in, out, (int)ya, (int)yb);
    return sweep_rule<MAX>(a, s, in, own, out, colour, ya, yb);
}

/* Copies the strip's rows of both fields between global and shared memory. */
template <typename T>
__device__ static void copy_strip(const chip_args<T> &a, const strip<T> &s, bool load)
{
    const long n = s.rows * a.lx;
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    const int threads = blockDim.x * blockDim.y;
#pragma unroll
    for (int f = 0; f < 2; f++) {
        T *global = a.field[f] + s.y0 * a.lx;
        for (long i = tid; i < n; i += threads) {
            if (load)
                field_of(s, f)[i] = global[i];
            else
                global[i] = field_of(s, f)[i];
        }
    }
}

template <bool PLAIN, bool MAX, typename T>
__global__ void __launch_bounds__(CHIP_THREADS, 1) chip_loop(chip_args<T> a)
{
    extern __shared__ unsigned char chip_bytes[];
    __shared__ chip_sums sums[2]; /* every warp's sums of iterations of each parity */
    __shared__ int stopped[2];    /* thread 0's decision of iterations of each parity */
    cg::cluster_group cluster = cg::this_cluster();
    const strip<T> s = strip_of(a, cluster, reinterpret_cast<T *>(chip_bytes));
    const bool decider = threadIdx.x == 0 && threadIdx.y == 0;
    const bool writer = decider && cluster.block_rank() == 0;
    stop_state mine = *a.state; /* kept up to date by the deciders alone */
    const long start = mine.iteration;
    const long batch = mine.stopped ? 0 : a.batch;      /* the same for every thread */
    long since_check = start % a.stop_rule.check_every; /* k % check_every, counted */
    copy_strip(a, s, true);
    cluster.sync();
    for (long j = 0; j < batch; j++) {
        const long k = start + j + 1;
        const int old = (int)((k - 1) & 1), out = (int)(k & 1);
        double v;
        if (a.sor) {
            v = sweep_strip<PLAIN, MAX>(a, s, old, old, out, 0);
            cluster.sync(); /* the red sites' new values, for the black ones */
            v = combine<MAX>(v, sweep_strip<PLAIN, MAX>(a, s, out, old, out, 1));
        } else {
            v = sweep_strip<PLAIN, MAX>(a, s, old, old, out, -1);
        }
        since_check = since_check + 1 == a.stop_rule.check_every ? 0 : since_check + 1;
        const bool check = since_check == 0 || k == a.stop_rule.max_iter; /* wants_norm */
        if (check)
            send_warp_sum<MAX>(cluster, v, sums, out);
        cluster.sync();
        /* The decision of k - 1, taken while k was swept: a stop there leaves field
         * k - 1 whole (k wrote the other one), and k is not counted. */
        if (j > 0 && stopped[old])
            break;
        if (threadIdx.x + threadIdx.y * blockDim.x < 32) { /* warp 0 decides */
            const double total = check ? cluster_total<MAX>(cluster, sums, out,
                                                            blockDim.x * blockDim.y / 32)
                                       : 0.0;
            if (decider) { /* the same sums, the same decision in every block */
                const double norm = check ? stop_rule_norm(&a.stop_rule, total) : NAN;
                if (writer && check)
                    a.norms[j] = norm;
                stopped[out] = stop_state_step(&a.stop_rule, &mine, k, check, norm);
            }
        }
    }
    cluster.sync(); /* no block leaves while another may read its shared memory */
    copy_strip(a, s, false);
    if (writer)
        *a.state = mine;
}

/* The kernel for the rule: plain Jacobi's fast walk, or any rule with its norm. */
template <typename T>
static void (*chip_kernel(bool plain, const update_rule &u))(chip_args<T>)
{
    if (plain)
        return chip_loop<true, false, T>;
    return u.norm == NORM_MAX ? chip_loop<false, true, T> : chip_loop<false, false, T>;
}

static cudaLaunchConfig_t chip_config(const chip_plan &p, cudaLaunchAttribute *cluster,
                                      cudaStream_t stream)
{
    cudaLaunchConfig_t config = {};
    cluster->id = cudaLaunchAttributeClusterDimension;
    cluster->val.clusterDim.x = (unsigned)p.blocks;
    cluster->val.clusterDim.y = 1;
    cluster->val.clusterDim.z = 1;
    config.gridDim = dim3((unsigned)p.blocks);
    config.blockDim = p.depth > 0 ? dim3((unsigned)(p.threads_x * p.threads_y + 32))
                                  : dim3((unsigned)p.threads_x, (unsigned)p.threads_y);
    config.dynamicSmemBytes = p.shared_bytes;
    config.stream = stream;
    config.attrs = cluster;
    config.numAttrs = 1;
    return config;
}

/* Lets the kernel take p's shared memory and cluster size. */
template <typename T>
static cudaError_t set_attributes(void (*kernel)(chip_args<T>), const chip_plan &p)
{
    cudaError_t rc = cudaFuncSetAttribute(
        kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p.shared_bytes);
    if (rc == cudaSuccess)
        rc = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed,
                                  p.blocks > 8);
    return rc;
}

/* Whether a cluster of p's shape can run on the device; a shape the device refuses
 * is no error, only no fit. */
template <typename T>
static cudaError_t cluster_fits(void (*kernel)(chip_args<T>), const chip_plan &p,
                                bool *fits)
{
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t config = chip_config(p, &attribute, 0);
    int clusters = 0;
    cudaError_t rc = set_attributes(kernel, p);
    if (rc == cudaSuccess)
        rc = cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
    *fits = rc == cudaSuccess && clusters >= 1;
    if (rc == cudaErrorInvalidValue || rc == cudaErrorInvalidClusterSize) {
        cudaGetLastError(); /* refused, not failed: clear it for the next check */
        return cudaSuccess;
    }
    return rc;
}

/* The shape of `blocks` strips over the tile, in rounds of `depth` iterations (0:
 * none), its shared memory not yet checked. */
static chip_plan shape_of(int blocks, bool plain, int depth, long lx, long ly,
                          size_t value_size)
{
    chip_plan p = {};
    p.blocks = blocks;
    p.plain = plain;
    p.depth = depth;
    p.rows = (ly + blocks - 1) / blocks;
    const long fields = depth > 0 ? 2 * depth : 2;
    p.shared_bytes =
        (size_t)fields * (size_t)(p.rows + 2 * depth) * (size_t)lx * value_size;
    if (depth > 0) /* the most rows a step sweeps; a warp more decides */
        strip_threads(lx, p.rows + 2 * depth - 2, CHIP_BLOCK_THREADS, CHIP_ROUND_SWEEPERS,
                      &p.threads_x, &p.threads_y);
    else
        strip_threads(lx, p.rows, CHIP_BLOCK_THREADS, CHIP_THREADS, &p.threads_x,
                      &p.threads_y);
    return p;
}

/* The cluster sizes a plan tries (1, 2, 4, 8, 16 blocks). */
#define CHIP_CLUSTER_SIZES 5

/*
 * The cluster sizes to try for a tile ly rows high, best first, into order; returns
 * their count. The most blocks whose strips keep CHIP_LEAST_ROWS rows; then more,
 * while strips keep half as many (a wide lattice whose strips do not fit in one
 * block's shared memory); then fewer (a cluster the device cannot hold).
 */
static int cluster_sizes(long ly, long least, int order[CHIP_CLUSTER_SIZES])
{
    int best = 1, count = 0;
    while (best < CHIP_MOST_BLOCKS && 2L * best * least <= ly)
        best *= 2;
    for (int blocks = best;
         blocks <= CHIP_MOST_BLOCKS && (blocks == best || ly / blocks >= least / 2);
         blocks *= 2)
        order[count++] = blocks;
    for (int blocks = best / 2; blocks >= 1; blocks /= 2)
        order[count++] = blocks;
    return count;
}

/* The kernel that runs plan p for update rule u. */
template <typename T>
static void (*kernel_of(const chip_plan &p, const update_rule &u))(chip_args<T>)
{
    return p.depth > 0 ? chip_rounds<T> : chip_kernel<T>(p.plain, u);
}

/* Plan p if its strips fit in a block's shared memory (shared_most, less the kernel's
 * own) and the device can hold its cluster: *fits. */
template <typename T>
static cudaError_t plan_fits(const chip_plan &p, const update_rule &u, int shared_most,
                             bool *fits)
{
    *fits = false;
    void (*kernel)(chip_args<T>) = kernel_of<T>(p, u);
    cudaFuncAttributes attributes;
    cudaError_t rc = cudaFuncGetAttributes(&attributes, kernel);
    if (rc != cudaSuccess ||
        p.shared_bytes + attributes.sharedSizeBytes > (size_t)shared_most)
        return rc; /* strips too large: more blocks may hold them */
    return cluster_fits(kernel, p, fits);
}

template <typename T>
static cudaError_t plan_of(const sweep_launch *tile, bool plain, int depth,
                           chip_plan *plan)
{
    *plan = chip_plan{};
    int device = 0, cluster_launch = 0, shared_most = 0;
    cudaError_t rc = cudaGetDevice(&device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(&shared_most, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                    device);
    if (rc != cudaSuccess || !cluster_launch || tile->lx < 3 || tile->ly < 3 ||
        (depth > 0 && !plain))
        return rc; /* rounds are plain Jacobi's */
    int order[CHIP_CLUSTER_SIZES];
    const int sizes = cluster_sizes(
        tile->ly, depth > 0 ? CHIP_ROUND_LEAST_ROWS : CHIP_LEAST_ROWS, order);
    for (int i = 0; i < sizes; i++) {
        if (tile->ly / order[i] < depth)
            continue; /* a halo deeper than a strip */
        const chip_plan p =
            shape_of(order[i], plain, depth, tile->lx, tile->ly, sizeof(T));
        bool fits = false;
        rc = plan_fits<T>(p, tile->update_rule, shared_most, &fits);
        if (rc != cudaSuccess || fits) {
            if (fits)
                *plan = p;
            return rc;
        }
    }
    return cudaSuccess;
}

template <typename T>
static cudaError_t launch(const chip_plan &p, const sweep_launch *tile, void *field0,
                          void *field1, long batch, stop_state *state, double *norms,
                          stop_rule stop_rule, cudaStream_t stream)
{
    chip_args<T> a;
    a.field[0] = (T *)field0;
    a.field[1] = (T *)field1;
    a.lx = tile->lx;
    a.ly = tile->ly;
    a.rows = p.rows;
    a.batch = batch;
    a.state = state;
    a.norms = norms;
    a.stop_rule = stop_rule;
    a.r = rule_of<T>(tile);
    a.sor = tile->update_rule.method == METHOD_SOR;
    a.threads_x = p.threads_x;
    a.threads_y = p.threads_y;
    a.depth = p.depth;
    void (*kernel)(chip_args<T>) = kernel_of<T>(p, tile->update_rule);
    cudaError_t rc = set_attributes(kernel, p);
    if (rc != cudaSuccess)
        return rc;
    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t config = chip_config(p, &attribute, stream);
    rc = cudaLaunchKernelEx(&config, kernel, a);
    return rc != cudaSuccess ? rc : cudaGetLastError();
}

extern "C" cudaError_t laplace_chip_plan(const struct sweep_launch *tile,
                                         int plain_jacobi, int depth,
                                         struct chip_plan *plan)
{
    if (tile->precision == PRECISION_FLOAT)
        return plan_of<float>(tile, plain_jacobi != 0, depth, plan);
    return plan_of<double>(tile, plain_jacobi != 0, depth, plan);
}

extern "C" cudaError_t laplace_chip_loop(const struct chip_plan *plan,
                                         const struct sweep_launch *tile, void *field0,
                                         void *field1, long batch,
                                         struct stop_state *state, double *norms,
                                         struct stop_rule rule, cudaStream_t stream)
{
    if (tile->precision == PRECISION_FLOAT)
        return launch<float>(*plan, tile, field0, field1, batch, state, norms, rule,
                             stream);
    return launch<double>(*plan, tile, field0, field1, batch, state, norms, rule, stream);
}
