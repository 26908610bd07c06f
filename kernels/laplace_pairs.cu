/*
 * laplace_pairs.cu - two Jacobi iterations in one pass through memory, for a lone
 * tile whose fields do not fit on chip, or for tiles stacked in rows as wide as the
 * lattice (device_cuda_pairs.c queues the passes in batches, loop_batches.c runs
 * them).
 *
 * A sweep of the rows kernel reads every site once and writes it once: on a lattice
 * larger than L2 its time is the copy's. A pass here reads the field of iteration k
 * once and writes that of k + 2 once, so it moves about half the bytes an iteration.
 *
 * Each warp walks up a strip of 64 columns and H (16) rows, two columns a lane, with no
 * shared memory and no barrier: it loads the rows of iteration k from two rows below
 * its strip to two above, four rows ahead of their use (so that four loads of a warp
 * are in flight), and keeps the last three in registers; from them it computes
 * row after row of iteration k + 1 (its west and east values from the lanes beside
 * it, by shuffles), keeps the last three of those, and from them computes iteration
 * k + 2, which it writes out. The strip's first and last lanes only feed their
 * neighbours (their columns belong to the warps beside), so a warp owns the 60
 * columns of lanes 1-30; iteration k + 1 of the rows and columns around its own is
 * computed by both warps that need it, with the same arithmetic, so to the same bits.
 *
 * Each step adds the squares of its own sites' updates into one block sum (laplace_
 * block_sums.cuh), so the host gets both iterations' norms. The block sums are not
 * the rows kernel's (other blocks, another order of additions); the fields are the
 * same bits, since every site is updated by the design's formula from the same
 * values. Sites on the lattice's edge keep their values; iteration k + 1 is never
 * stored, so a stop at it is taken by replaying single sweeps (loop_batches.c).
 *
 * A stacked tile (sweep_stacked) reads the two nearest rows of iteration k of the
 * tiles below and above it straight from their GPUs (peer reads) and computes
 * iteration k + 1 of the nearer one as its owner does, to the same bits: its halo is
 * as deep as the pass. A lone tile's kernel (sweep_pair) reads only its own rows.
 * Stacked tiles meet their neighbours once a pass: through the stream's order (the
 * graph's edges between GPUs), or through peer flags (laplace_pairs.h's struct
 * pass_flags), with which only the edge strips wait, and the last of them tells.
 */
#include "kernels/laplace_pairs.h"

#include "laplace_kernels.h"

#include "kernels/laplace_block_sums.cuh"
#include "kernels/laplace_sites.cuh"

/* A block: 8 warps side by side, each owning 60 columns of its strip. */
enum { PAIR_WARPS = 8, PAIR_OWN_COLUMNS = 60 };

/* Two neighbouring columns of one row, in a lane's registers. */
template <typename T> struct duo {
    T a, b;
};

/* One lane's place in its strip: its two columns and what it may do at them. */
struct strip_lane {
    long x;            /* the first of its two columns (the second is x + 1) */
    bool in_a, in_b;   /* inside the lattice */
    bool upd_a, upd_b; /* updated: inside and not on the lattice's west or east edge */
    bool own;          /* the warp owns its columns (lanes 1-30) */
    bool paired;       /* both columns load and store as one (8 or 16 bytes) */
};

/* Row y of iteration k at the lane's columns (0 outside the lattice). */
template <typename T>
__device__ __forceinline__ duo<T> load_row(const T *__restrict__ old, long lx, long y,
                                           bool row_in, const strip_lane &s)
{
    duo<T> v = {T(0), T(0)};
    const T *p = old + y * lx + s.x;
    if (!row_in)
        return v;
    if (s.paired) {
        const packed<T, 2> q = *reinterpret_cast<const packed<T, 2> *>(p);
        return duo<T>{q.v[0], q.v[1]};
    }
    if (s.in_a)
        v.a = p[0];
    if (s.in_b)
        v.b = p[1];
    return v;
}

/* Where a stacked tile's pass reads iteration k: its own rows, and the two nearest
 * rows of the tiles below and above it (NULL at the lattice's edge). */
template <typename T> struct stacked_rows {
    const T *old;   /* rows 0 .. ly - 1 */
    const T *south; /* row ly' - 1 of the tile below (and the row under it), or NULL */
    const T *north; /* row 0 of the tile above (and the row over it), or NULL */
    long lx, ly;
};

/* The start of row y of iteration k, or NULL outside the lattice and past the
 * neighbours' two nearest rows (those would feed only rows a pass does not store). */
template <typename T>
__device__ __forceinline__ const T *row_at(const stacked_rows<T> &f, long y)
{
    if (y >= 0 && y < f.ly)
        return f.old + y * f.lx;
    if (y < 0)
        return f.south && y >= -2 ? f.south + (y + 1) * f.lx : nullptr;
    return f.north && y < f.ly + 2 ? f.north + (y - f.ly) * f.lx : nullptr;
}

__device__ __forceinline__ duo<float> read_only_duo(const float *p)
{
    const float2 q = __ldg(reinterpret_cast<const float2 *>(p));
    return duo<float>{q.x, q.y};
}

__device__ __forceinline__ duo<double> read_only_duo(const double *p)
{
    const double2 q = __ldg(reinterpret_cast<const double2 *>(p));
    return duo<double>{q.x, q.y};
}

/* Whether a stacked tile's pass updates row y: every row of the tile but the
 * lattice's south and north edges (its first row where no tile lies below, its last
 * where none lies above), and the neighbours' nearest rows (every tile is at least 2
 * rows high, so those are never the lattice's edge). */
template <typename T>
__device__ __forceinline__ bool stacked_row_updated(const stacked_rows<T> &f, long y)
{
    return (y > 0 || (f.south && y >= -1)) && (y < f.ly - 1 || (f.north && y <= f.ly));
}

/* Row y of iteration k of a stacked tile at the lane's columns (0 outside the
 * lattice), by read-only loads: no row a pass reads is written while it reads it (the
 * neighbours' next pass waits for this one), so the loads may run ahead of the stores,
 * which the compiler cannot prove apart from row_at's pointers on its own. With peer
 * flags a neighbour's rows may still be being written when the pass starts; its edge
 * blocks read them only after their wait's acquire, which no earlier load of those
 * rows precedes in this launch (whose L1 starts clean). A coherent load (__ldcg) for
 * the neighbours' rows alone would follow the memory model to the letter: to be
 * measured first, as every change of these loads (results/2026-11-27-several-gpus). */
template <typename T>
__device__ __forceinline__ duo<T> load_stacked_row(const stacked_rows<T> &f, long y,
                                                   const strip_lane &s)
{
    duo<T> v = {T(0), T(0)};
    const T *row = row_at(f, y);
    if (!row)
        return v;
    const T *p = row + s.x;
    if (s.paired)
        return read_only_duo(p);
    if (s.in_a)
        v.a = __ldg(p);
    if (s.in_b)
        v.b = __ldg(p + 1);
    return v;
}

/* Writes the lane's own updated sites of row y. */
template <typename T>
__device__ __forceinline__ void store_row(T *__restrict__ out, long lx, long y,
                                          const duo<T> &v, bool a, bool b,
                                          const strip_lane &s)
{
    T *p = out + y * lx + s.x;
    if (s.paired && a && b) {
        *reinterpret_cast<packed<T, 2> *>(p) = packed<T, 2>{{v.a, v.b}};
        return;
    }
    if (a)
        p[0] = v.a;
    if (b)
        p[1] = v.b;
}

/* One Jacobi step of the lane's two sites from the rows below, at and above them;
 * sites not updated (the lattice's edges, or a row that is not) keep `here`. Adds the
 * squares of the updates to *square when `counted`. */
template <typename T>
__device__ __forceinline__ duo<T>
step(const duo<T> &south, const duo<T> &here, const duo<T> &north, bool row_updated,
     const strip_lane &s, bool counted, T scale, double *square)
{
    const T west = __shfl_up_sync(0xffffffffu, here.b, 1);
    const T east = __shfl_down_sync(0xffffffffu, here.a, 1);
    duo<T> v = here;
    if (row_updated && s.upd_a)
        v.a = jacobi(south.a, west, here.b, north.a);
    if (row_updated && s.upd_b)
        v.b = jacobi(south.b, here.a, east, north.b);
    if (counted) {
        *square += square_of(v.a - here.a, scale);
        *square += square_of(v.b - here.b, scale);
    }
    return v;
}

/*
 * The warp's strip: rows y0 .. y0 + H - 1 of iteration k + 2 from old into out, the
 * lane's squares of iterations k + 1 and k + 2 of its own sites added to first and
 * second. Row r of the walk takes iteration k at y0 - 2 + r, loaded D rows earlier
 * (so that D loads are in flight at once); iteration k + 1 follows one row behind,
 * k + 2 two rows behind.
 */
template <int H, int D, bool STACKED, typename T>
__device__ __forceinline__ void
walk_strip(const T *__restrict__ old, const stacked_rows<T> *stacked, T *__restrict__ out,
           T *__restrict__ keep, long lx, long ly, long y0, const strip_lane &s, T scale,
           double *first, double *second)
{
    duo<T> ahead[D];
#pragma unroll
    for (int r = 0; r < D; r++) {
        const long y = y0 - 2 + r;
        ahead[r] = STACKED ? load_stacked_row(*stacked, y, s)
                           : load_row(old, lx, y, y >= 0 && y < ly, s);
    }
    duo<T> k0s = {}, k0h = {}, k1s = {}, k1h = {};
#pragma unroll
    for (int r = 0; r < H + 4; r++) {
        const long y = y0 - 2 + r;
        const duo<T> k0n = ahead[r % D];
        if (r + D < H + 4) {
            const long later = y + D;
            ahead[r % D] = STACKED
                               ? load_stacked_row(*stacked, later, s)
                               : load_row(old, lx, later, later >= 0 && later < ly, s);
        }
        if (keep && s.own && r >= 2 && r < H + 2 && y < ly)
            store_row(keep, lx, y, k0n, s.in_a, s.in_b, s);
        if (r < 2) {
            k0s = k0h;
            k0h = k0n;
            continue;
        }
        const long y1 = y - 1; /* iteration k + 1 of row y1 */
        const bool row1 =
            STACKED ? stacked_row_updated(*stacked, y1) : y1 > 0 && y1 < ly - 1;
        const duo<T> k1n = step(k0s, k0h, k0n, row1, s,
                                s.own && r >= 3 && r < H + 3 && y1 < ly, scale, first);
        k0s = k0h;
        k0h = k0n;
        if (r >= 4) {
            const long y2 = y - 2; /* iteration k + 2 of row y2 */
            const bool row_updated = STACKED
                                         ? y2 < ly && stacked_row_updated(*stacked, y2)
                                         : y2 > 0 && y2 < ly - 1;
            const duo<T> v =
                step(k1s, k1h, k1n, row_updated, s, s.own && y2 < ly, scale, second);
            if (s.own && row_updated)
                store_row(out, lx, y2, v, s.upd_a, s.upd_b, s);
        }
        k1s = k1h;
        k1h = k1n;
    }
}

/* This thread's lane of its warp's strip, on a lattice lx wide. */
__device__ __forceinline__ strip_lane lane_of(long lx)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long strip = (long)blockIdx.x * PAIR_WARPS + warp;
    strip_lane s;
    s.x = strip * PAIR_OWN_COLUMNS - 2 + 2 * lane;
    s.in_a = s.x >= 0 && s.x < lx;
    s.in_b = s.x + 1 >= 0 && s.x + 1 < lx;
    s.upd_a = s.x > 0 && s.x < lx - 1;
    s.upd_b = s.x + 1 > 0 && s.x + 1 < lx - 1;
    s.own = lane >= 1 && lane <= 30;
    s.paired = lx % 2 == 0 && s.in_a && s.in_b;
    return s;
}

/* A lone tile's pass. Its lane is set in place, as lane_of does: through lane_of the
 * compiler allocates the registers otherwise, and this kernel is the one measured in
 * results/2026-11-27-pairs (its PTX unchanged since). */
template <int H, int D, typename T>
__global__ void __launch_bounds__(PAIR_WARPS * 32)
    sweep_pair(const T *__restrict__ old, T *__restrict__ out, T *__restrict__ keep,
               long lx, long ly, double *first_sums, double *second_sums, T scale)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long strip = (long)blockIdx.x * PAIR_WARPS + warp;
    strip_lane s;
    s.x = strip * PAIR_OWN_COLUMNS - 2 + 2 * lane;
    s.in_a = s.x >= 0 && s.x < lx;
    s.in_b = s.x + 1 >= 0 && s.x + 1 < lx;
    s.upd_a = s.x > 0 && s.x < lx - 1;
    s.upd_b = s.x + 1 > 0 && s.x + 1 < lx - 1;
    s.own = lane >= 1 && lane <= 30;
    s.paired = lx % 2 == 0 && s.in_a && s.in_b;
    double first = 0.0, second = 0.0;
    walk_strip<H, D, false>(old, (const stacked_rows<T> *)nullptr, out, keep, lx, ly,
                            (long)blockIdx.y * H, s, scale, &first, &second);
    const long b = blockIdx.x + (long)blockIdx.y * gridDim.x;
    write_block_sum(first, first_sums, b);
    write_block_sum(second, second_sums, b);
}

/* The peer flags (struct pass_flags): a load that sees every store the neighbour's
 * GPU made before its flag, a store that publishes every store made before it, and
 * the GPU's clock in nanoseconds. */
__device__ __forceinline__ unsigned long long load_acquire(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void store_release(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ unsigned long long clock_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Whether the neighbours that exist have finished `passes` passes. */
__device__ __forceinline__ bool neighbours_done(const pass_flags &f, unsigned long long passes)
{
    return (!f.south_slot || load_acquire(&f.heard[0]) >= passes) &&
           (!f.north_slot || load_acquire(&f.heard[1]) >= passes);
}

/* A block whose strip reads a neighbour's rows: its first thread waits until both
 * neighbours have finished the passes this tile has (so their rows of iteration k are
 * written, and their reads of this tile's rows this pass overwrites are done), or
 * until the host says another tile failed (looked at every 1024 tries: it lies across
 * PCIe), or PASS_WAIT_MOST_S has passed; then the whole block goes on. (A south strip
 * needs only the south neighbour; waiting for both costs nothing measurable and keeps
 * one rule.) *f.done is read once: only the last edge block of this pass changes it,
 * after every edge block, this one included, has waited. A wait that times out also
 * raises the tile's stop word, so that its later passes do not wait again. */
__device__ void wait_for_neighbours(const pass_flags &f)
{
    if (threadIdx.x == 0) {
        const unsigned long long passes = *f.done, start = clock_ns();
        for (unsigned tries = 1; !neighbours_done(f, passes); tries++) {
            if (tries % 1024 != 0)
                continue;
            if (*f.stop)
                break;
            if (clock_ns() - start > PASS_WAIT_MOST_S * 1000000000ull) {
                *f.timed_out = 1;
                *f.stop = 1;
                break;
            }
        }
    }
    __syncthreads();
}

/* The edge blocks' last (its first thread, after every thread of its block has
 * stored its rows): counts the pass and tells the neighbours. */
__device__ void tell_neighbours(const pass_flags &f)
{
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    __threadfence();
    if (atomicAdd(f.arrived, 1u) + 1 != f.edge_blocks)
        return;
    *f.arrived = 0;
    const unsigned long long passes = *f.done + 1;
    *f.done = passes;
    __threadfence_system(); /* the release store alone would do; kept as measured */
    if (f.south_slot)
        store_release(f.south_slot, passes);
    if (f.north_slot)
        store_release(f.north_slot, passes);
}

/* Whether the strip of H rows from y0 reads a neighbour's rows (it loads rows y0 - 2 ..
 * y0 + H + 1). */
template <typename T>
__host__ __device__ __forceinline__ bool at_edge(const stacked_rows<T> &rows, long y0,
                                                 long h)
{
    return (rows.south && y0 < 2) || (rows.north && y0 + h + 2 > rows.ly);
}

/* A stacked tile's pass: its neighbours' nearest rows read in place by the strips
 * that reach them (the walk loads rows y0 - 2 .. y0 + H + 1), the stream having
 * ordered the whole pass after the neighbours' last (the graph's edges); the others
 * walk as a lone tile's do. */
template <int H, int D, typename T>
__global__ void __launch_bounds__(PAIR_WARPS * 32)
    sweep_stacked(const T *__restrict__ old, const stacked_rows<T> rows,
                  T *__restrict__ out, T *__restrict__ keep, double *first_sums,
                  double *second_sums, T scale)
{
    const strip_lane s = lane_of(rows.lx);
    const long y0 = (long)blockIdx.y * H;
    double first = 0.0, second = 0.0;
    if ((rows.south && y0 < 2) || (rows.north && y0 + H + 2 > rows.ly)) /* at_edge */
        walk_strip<H, D, true>(old, &rows, out, keep, rows.lx, rows.ly, y0, s, scale,
                               &first, &second);
    else
        walk_strip<H, D, false>(old, &rows, out, keep, rows.lx, rows.ly, y0, s, scale,
                                &first, &second);
    const long b = blockIdx.x + (long)blockIdx.y * gridDim.x;
    write_block_sum(first, first_sums, b);
    write_block_sum(second, second_sums, b);
}

/* The same pass meeting through peer flags: the edge strips first wait for the
 * neighbours' last pass, and the last of them tells. A kernel of its own, not a flag
 * of the one above: there the flags' code took registers from every pass (float 55 to
 * 60, double 74 to 89; a shared inline body, or at_edge called above, 64 and 80) and
 * the graph's passes measured 2.5-5.8% slower on 1x2 (results/2026-11-27-several-gpus,
 * call 11). */
template <int H, int D, typename T>
__global__ void __launch_bounds__(PAIR_WARPS * 32)
    sweep_stacked_flagged(const T *__restrict__ old, const stacked_rows<T> rows,
                          T *__restrict__ out, T *__restrict__ keep, double *first_sums,
                          double *second_sums, T scale, const pass_flags flags)
{
    const strip_lane s = lane_of(rows.lx);
    const long y0 = (long)blockIdx.y * H;
    double first = 0.0, second = 0.0;
    const bool edge = at_edge(rows, y0, H);
    if (edge) {
        wait_for_neighbours(flags);
        walk_strip<H, D, true>(old, &rows, out, keep, rows.lx, rows.ly, y0, s, scale,
                               &first, &second);
    } else
        walk_strip<H, D, false>(old, &rows, out, keep, rows.lx, rows.ly, y0, s, scale,
                                &first, &second);
    const long b = blockIdx.x + (long)blockIdx.y * gridDim.x;
    write_block_sum(first, first_sums, b);
    write_block_sum(second, second_sums, b);
    if (edge)
        tell_neighbours(flags);
}

/* The rows of a strip, and the rows a lane loads ahead: 16 and 4. Measured on an H100,
 * float with the norm every iteration, us an iteration (results/2026-11-27-pairs,
 * run-3): 16 rows, 4 ahead: 2048^2 11.75, 4096^2 36.97, 16384^2 563.0; 32 rows, 4
 * ahead: 11.93, 38.93, 561.0; 32 rows, none ahead: 12.16, 37.66, 584.7; 64 rows, 4
 * ahead: 22.36, 70.33, 820.9. The other shapes left the code with that experiment. */
#define PAIR_STRIP_ROWS 16
#define PAIR_ROWS_AHEAD 4

/* The blocks of a lattice's passes: across (8 strips of 60 columns each) and up. */
static void pair_blocks(long lx, long ly, long *across, long *up)
{
    const long columns = (long)PAIR_WARPS * PAIR_OWN_COLUMNS, rows = PAIR_STRIP_ROWS;
    *across = (lx + columns - 1) / columns;
    *up = (ly + rows - 1) / rows;
}

extern "C" int laplace_pairs_fits(long lx, long ly)
{
    long across, up;
    pair_blocks(lx, ly, &across, &up);
    return up <= 65535 && across <= 0x7fffffffL;
}

extern "C" long laplace_pairs_blocks(long lx, long ly)
{
    long across, up;
    pair_blocks(lx, ly, &across, &up);
    return across * up;
}

template <int H, int D, typename T>
static void launch_strips(const pair_launch *l, cudaStream_t stream)
{
    long across, up;
    pair_blocks(l->lx, l->ly, &across, &up);
    const dim3 grid((unsigned)across, (unsigned)up);
    if (!l->south && !l->north) {
        sweep_pair<H, D, T><<<grid, PAIR_WARPS * 32, 0, stream>>>(
            (const T *)l->old, (T *)l->new_, (T *)l->keep, l->lx, l->ly, l->first_sums,
            l->second_sums, (T)l->square_scale);
        return;
    }
    const stacked_rows<T> rows = {(const T *)l->old, (const T *)l->south,
                                  (const T *)l->north, l->lx, l->ly};
    if (!l->flags) {
        sweep_stacked<H, D, T><<<grid, PAIR_WARPS * 32, 0, stream>>>(
            (const T *)l->old, rows, (T *)l->new_, (T *)l->keep, l->first_sums,
            l->second_sums, (T)l->square_scale);
        return;
    }
    pass_flags flags = *l->flags;
    for (long y = 0; y < up; y++)
        flags.edge_blocks += at_edge(rows, y * H, H) ? (unsigned)across : 0u;
    sweep_stacked_flagged<H, D, T><<<grid, PAIR_WARPS * 32, 0, stream>>>(
        (const T *)l->old, rows, (T *)l->new_, (T *)l->keep, l->first_sums,
        l->second_sums, (T)l->square_scale, flags);
}

template <typename T>
static cudaError_t launch_pair(const pair_launch *l, cudaStream_t stream)
{
    launch_strips<PAIR_STRIP_ROWS, PAIR_ROWS_AHEAD, T>(l, stream);
    return cudaGetLastError();
}

extern "C" cudaError_t laplace_pairs_sweep(const struct pair_launch *l,
                                           cudaStream_t stream)
{
    if (l->precision == PRECISION_FLOAT)
        return launch_pair<float>(l, stream);
    return launch_pair<double>(l, stream);
}

