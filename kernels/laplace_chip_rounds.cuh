/*
 * laplace_chip_rounds.cuh - the loop on chip in rounds (chip_rounds), for plain
 * Jacobi: the cluster meets once in a round of several iterations, each block
 * sweeping the halo rows it keeps of its neighbours' strips, and a warp of every
 * block takes the stop decisions while the others sweep. Included by laplace_chip.cu,
 * which plans and launches it.
 */
#ifndef LAPLACE_CHIP_ROUNDS_CUH
#define LAPLACE_CHIP_ROUNDS_CUH

#include "kernels/laplace_chip_meeting.cuh"

/* A block keeps 2 depth fields, depth at most CHIP_MOST_DEPTH (laplace_kernels.h; the
 * plan chooses it: plan/loop_plan.c). */
#define CHIP_ROUND_SWEEPERS 512 /* the most sweeping threads of a block in rounds */
#define CHIP_ROUND_LEAST_ROWS 8 /* CHIP_LEAST_ROWS for the rounds */
/* Whole warps (barrier 1 counts them), and at most a block's less the deciding warp;
 * strip_threads then gives a multiple of 32 up to it, one sum slot a warp. */
static_assert(CHIP_ROUND_SWEEPERS % 32 == 0 && CHIP_ROUND_SWEEPERS + 32 <= CHIP_THREADS,
              "the rounds' sweepers must be whole warps beside a deciding warp");
typedef warp_sums<CHIP_ROUND_SWEEPERS / 32> round_sums;

/*
 * The loop on chip in rounds, for plain Jacobi: each block also keeps the plan's depth
 * (h) rows of each neighbour's strip beside its own (its halos) in every one of its F =
 * 2h fields (iteration k in field k % F), so that the cluster meets once a round of h
 * iterations, not once an iteration; and one warp of every block, its deciding warp,
 * sweeps nothing and takes the stop decisions while the others sweep. Round r from
 * iteration k, between the cluster's barriers r and r + 1:
 *   1. the sweeping threads copy their halos of field k from the neighbours' shared
 *      memory (after barrier r, field k is whole everywhere) and meet at their own
 *      barrier; the deciding warp meanwhile takes the decisions of round r - 1,
 *      whose sums arrived before barrier r;
 *   2. they sweep h iterations alone: iteration k + j over the strip and the h - j
 *      rows of each halo the halos reach (rows a neighbour sweeps too, to the same
 *      bits), each warp sending the sum of its squares of the strip's own rows to
 *      every block, meeting at their barrier between iterations;
 *   3. the cluster meets (cluster.sync()): the strips' new rows, every warp's sums of
 *      the round and the decisions of round r - 1 are then visible.
 * After barrier r every thread looks for a stop among the rounds decided before it
 * (round r - 2 and earlier): one ends the loop of every thread at the same barrier.
 * So round r - 2's fields must stay whole through round r - 1's: F = 2h fields. The
 * sums of a round go to slots of their own (iteration % 2h): the deciding warps read
 * round r - 1's before barrier r + 1, and round r + 1 writes them again after it. Two
 * more barriers after the last round let its decisions arrive.
 */
template <typename T> struct band {
    T *shared;       /* field f at shared + f * size; row l: lattice row y0 - h + l */
    long size;       /* a field's values: (the most rows + 2 h) lx */
    long y0, rows;   /* the strip's first lattice row, and its rows */
    const T *below;  /* the block below's field 0 from its strip's first row (NULL:
                        none), in its shared memory */
    const T *above;  /* the block above's, likewise */
    long below_rows; /* the rows of the block below's strip */
    int tx, ty;      /* a sweeping thread's column and row among threads_x x threads_y */
};

template <typename T>
__device__ static band<T> band_of(const chip_args<T> &a, cg::cluster_group &cluster,
                                  T *shared)
{
    const long b = cluster.block_rank(), blocks = cluster.num_blocks();
    band<T> s;
    s.shared = shared;
    s.size = (a.rows + 2 * a.depth) * a.lx;
    s.y0 = strip_start(b, blocks, a.ly);
    s.rows = strip_start(b + 1, blocks, a.ly) - s.y0;
    s.below_rows = b > 0 ? s.y0 - strip_start(b - 1, blocks, a.ly) : 0;
    T *own = shared + a.depth * a.lx;
    s.below = b > 0 ? cluster.map_shared_rank(own, (unsigned)(b - 1)) : NULL;
    s.above = b + 1 < blocks ? cluster.map_shared_rank(own, (unsigned)(b + 1)) : NULL;
    s.tx = (int)threadIdx.x % a.threads_x;
    s.ty = (int)threadIdx.x / a.threads_x;
    return s;
}

/* The loop's start: field[k % 2] (global memory, iteration k) into every field, the
 * halos' rows too, so that each field holds the lattice's fixed edge sites. */
template <typename T>
__device__ static void load_band(const chip_args<T> &a, const band<T> &s, long k)
{
    const long first = max(s.y0 - a.depth, 0L);
    const long last = min(s.y0 + s.rows + a.depth, a.ly); /* rows first .. last - 1 */
    const long n = (last - first) * a.lx, skip = (first - (s.y0 - a.depth)) * a.lx;
    const T *global = a.field[k & 1] + first * a.lx;
    for (long i = threadIdx.x; i < n; i += blockDim.x) {
        const T v = global[i];
        for (int f = 0; f < 2 * a.depth; f++)
            s.shared[f * s.size + skip + i] = v;
    }
}

/* The loop's end: the strip's own rows of iteration k (field k % F) into
 * field[k % 2] (global memory). */
template <typename T>
__device__ static void store_band(const chip_args<T> &a, const band<T> &s, long k)
{
    const long n = s.rows * a.lx;
    T *global = a.field[k & 1] + s.y0 * a.lx;
    const T *own = s.shared + (k % (2 * a.depth)) * s.size + a.depth * a.lx;
    for (long i = threadIdx.x; i < n; i += blockDim.x)
        global[i] = own[i];
}

/* Step 1 of a round: the halos of field f, the neighbours' edge rows of it. */
template <typename T>
__device__ static void take_halos(const chip_args<T> &a, const band<T> &s, int f,
                                  int sweepers)
{
    const long n = a.depth * a.lx, offset = f * s.size;
    T *low = s.shared + offset, *high = low + (a.depth + s.rows) * a.lx;
    for (long i = threadIdx.x; i < n; i += sweepers) {
        if (s.below)
            low[i] = s.below[offset + (s.below_rows - a.depth) * a.lx + i];
        if (s.above)
            high[i] = s.above[offset + i];
    }
}

/*
 * Step j of a round, iteration k + j: field rows lo .. hi - 1 (the strip and the
 * h - j rows of each halo next to it, inside the lattice's edge rows) from field
 * `in` into `out`. Thread (tx, ty) walks up columns 1 + tx, 1 + tx + threads_x, ...
 * through its segment ty of those rows, carrying the south and centre values in
 * registers. Returns the squares of the updates of the strip's own rows.
 */
template <typename T>
__device__ static double sweep_band(const chip_args<T> &a, const band<T> &s, int in,
                                    int out, int step)
{
    const int lx = (int)a.lx, h = a.depth, below = (int)s.y0 - h;
    const int lo = max(step, 1 - below);
    const int hi = min((int)s.rows + 2 * h - step, (int)a.ly - 1 - below);
    const int own_lo = h, own_hi = h + (int)s.rows;
    const int segment = (hi - lo + a.threads_y - 1) / a.threads_y;
    const int y0 = lo + s.ty * segment, y1 = min(hi, y0 + segment);
    const T *field = s.shared + in * s.size;
    T *target = s.shared + out * s.size;
    double acc = 0.0; /* rows 4 at a time: the compiler's own choice, as measured */
    for (int x = 1 + s.tx; x < lx - 1 && y0 < y1; x += a.threads_x)
        acc = walk_column<false, 4>(field, target, lx, x, y0, y1, own_lo, own_hi,
                                    a.r.square_scale, acc);
    return acc;
}

/* The deciding warp's decisions of iterations k + 1 .. k + steps, in order, from the
 * sums every block sent; the same in every block. Its lane 0 keeps the state (mine)
 * and returns the iteration a stop falls at (0: none), in every lane. */
template <typename T>
__device__ static long decide_round(const chip_args<T> &a, cg::cluster_group &cluster,
                                    const round_sums *sums, long start, long k, int steps,
                                    stop_state *mine)
{
    const int lane = threadIdx.x & 31, warps = a.threads_x * a.threads_y / 32;
    int slot = (int)((k + 1) % (2 * a.depth)); /* iteration k + j's: (k + j) % 2h */
    for (int j = 1; j <= steps; j++, slot = slot + 1 == 2 * a.depth ? 0 : slot + 1) {
        const long kj = k + j;
        const bool check = stop_rule_wants_norm(&a.stop_rule, kj);
        const double t = check ? cluster_total<false>(cluster, sums, slot, warps) : 0.0;
        int stop = 0;
        if (lane == 0) {
            const double norm = check ? stop_rule_norm(&a.stop_rule, t) : NAN;
            if (check && cluster.block_rank() == 0)
                a.norms[kj - start - 1] = norm;
            stop = stop_state_step(&a.stop_rule, mine, kj, check, norm);
        }
        if (__shfl_sync(0xffffffffu, stop, 0))
            return kj;
    }
    return 0;
}

template <typename T>
__global__ void __launch_bounds__(CHIP_ROUND_SWEEPERS + 32, 1) chip_rounds(chip_args<T> a)
{
    extern __shared__ unsigned char chip_bytes[];
    __shared__ round_sums sums[2 * CHIP_MOST_DEPTH]; /* a round's at iteration % 2h */
    __shared__ long stop_at[2]; /* a stop's iteration, read after barriers of parity
                                   r % 2; 0: none */
    cg::cluster_group cluster = cg::this_cluster();
    const band<T> s = band_of(a, cluster, reinterpret_cast<T *>(chip_bytes));
    const int sweepers = a.threads_x * a.threads_y;
    const bool deciding = (int)threadIdx.x >= sweepers;
    stop_state mine = *a.state; /* kept up to date by the deciding warps alone */
    const long start = mine.iteration;
    const long end = start + (mine.stopped ? 0 : a.batch); /* the same for every thread */
    const int h = a.depth, fields = 2 * h;
    const long rounds = (end - start + h - 1) / h;
    long since_check = start % a.stop_rule.check_every; /* k % check_every, counted */
    int f = (int)(start % fields);                      /* k % F, counted: k's field */
    if (threadIdx.x < 2)
        stop_at[threadIdx.x] = 0;
    load_band(a, s, start);
    cluster.sync(); /* barrier 0 */
    long k = start;
    for (long r = 0; stop_at[r & 1] == 0 && r <= rounds + 1; r++) {
        const long round_start = start + (r - 1) * h; /* round r - 1's */
        if (deciding && r >= 1 && r <= rounds) {
            const long stop = decide_round(a, cluster, sums, start, round_start,
                                           (int)min((long)h, end - round_start), &mine);
            if (stop && threadIdx.x == (unsigned)sweepers)
                stop_at[(r + 1) & 1] = stop; /* read after barrier r + 1 */
        }
        if (!deciding && r < rounds) {
            const int steps = (int)min((long)h, end - k);
            if (r > 0) {
                take_halos(a, s, f, sweepers);
                sweepers_meet(sweepers);
            }
            for (int j = 1; j <= steps; j++) {
                const int in = f;
                f = f + 1 == fields ? 0 : f + 1;
                const double v = sweep_band(a, s, in, f, j);
                k++;
                since_check =
                    since_check + 1 == a.stop_rule.check_every ? 0 : since_check + 1;
                if (since_check == 0 ||
                    k == a.stop_rule.max_iter)                 /* stop_rule_wants_norm */
                    send_warp_sum<false>(cluster, v, sums, f); /* k % 2h */
                if (j < steps)
                    sweepers_meet(sweepers); /* the strip's new rows */
            }
        }
        if (r <= rounds)
            cluster.sync(); /* barrier r + 1 */
    }
    const long final = stop_at[0] ? stop_at[0] : stop_at[1] ? stop_at[1] : end;
    cluster.sync(); /* no block leaves while another may read its shared memory */
    store_band(a, s, final);
    if (deciding && threadIdx.x == (unsigned)sweepers && cluster.block_rank() == 0)
        *a.state = mine;
}

#endif
