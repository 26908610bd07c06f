/*
 * laplace_spread_fields.cuh - the spread loop's sweep with a block's fields in shared
 * memory (laplace_spread.cu's head comment): F fields of the strip and its halos, each
 * thread walking columns of one field into the next; with halos (rounds of depth
 * iterations) or without (depth 0: the neighbours' edge rows every iteration).
 */
#ifndef LAPLACE_SPREAD_FIELDS_CUH
#define LAPLACE_SPREAD_FIELDS_CUH

#include "kernels/laplace_sites.cuh"          /* walk_column, jacobi, square_of */
#include "kernels/laplace_spread_decide.cuh"  /* decisions, stopped_by */
#include "kernels/laplace_spread_meeting.cuh" /* edge_rows, edge_depth */
#include "kernels/laplace_spread_strip.cuh"
#include "kernels/laplace_tagged.cuh" /* word, put, take_columns */

/* A field's values: the most rows of a strip and its halos. */
template <typename T, bool A>
__host__ __device__ __forceinline__ long field_size(const spread_args<T, A> &a)
{
    return (a.rows + 2 * a.depth) * a.lx;
}

/* Field f of the strip, from its first halo row. */
template <typename T> __device__ __forceinline__ T *field_of(const strip<T> &s, int f)
{
    return s.shared + f * s.size;
}

/* The strip's own rows in field f. */
template <typename T, bool A>
__device__ __forceinline__ T *own_rows(const spread_args<T, A> &a, const strip<T> &s,
                                       int f)
{
    return field_of(s, f) + a.depth * a.lx;
}

/* The field rows step j of a round updates: the strip and the depth - j rows of each
 * halo next to it, of the inner rows. */
template <typename T, bool A>
__device__ __forceinline__ void rows_of_step(const spread_args<T, A> &a,
                                             const strip<T> &s, int j, int *lo, int *hi)
{
    inner_rows(a, s, lo, hi);
    *lo = max(*lo, j);
    *hi = min(*hi, (int)s.rows + 2 * a.depth - j);
}

/*
 * Step j of a round: field rows lo .. hi - 1 from `in` into `out`. Thread (tx, ty)
 * walks up columns 1 + tx, 1 + tx + threads_x, ... through its segment ty of those
 * rows, carrying the south and centre values in registers. Returns the squares of
 * the updates of the strip's own rows.
 */
template <bool HALOS, int UNROLL, typename T, bool A>
__device__ static double sweep_rows(const spread_args<T, A> &a, const strip<T> &s,
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

/* Step 1 of a round: the halos' inner columns of iteration k into field f, from the
 * edge rows the neighbours published in slot `slot` (none below block 0, none above
 * the last). */
template <typename T, bool A>
__device__ static void take_halos(const spread_args<T, A> &a, const meeting &m,
                                  const strip<T> &s, long k, int slot, T *field,
                                  int sweepers)
{
    const int n = words_of<T>::count, lx = (int)a.lx;
    word *below = s.b > 0 ? edge_rows(a, m, s.b - 1, 1, slot) : NULL;
    word *above = s.b + 1 < a.blocks ? edge_rows(a, m, s.b + 1, 0, slot) : NULL;
    T *low = field, *high = field + (a.depth + s.rows) * lx;
    for (int x = 1 + threadIdx.x; x < lx - 1; x += sweepers) {
        T south[SPREAD_MOST_DEPTH], north[SPREAD_MOST_DEPTH];
        take_columns<SPREAD_MOST_DEPTH, A>(below ? below + x * n : NULL,
                                           above ? above + x * n : NULL, (long)lx * n,
                                           a.depth, k, south, north, a.wait);
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
 * and publishes the new value at edge + at (and across + at, where not NULL) too,
 * tagged k. Returns the norm's term.
 */
template <typename T, bool A>
__device__ __forceinline__ double update_edge(const spread_args<T, A> &a, const T *in,
                                              T *out, int i, T south, T north, word *edge,
                                              word *across, long at, long k)
{
    const T v = jacobi(south, in[i - 1], in[i + 1], north);
    out[i] = v;
    put_edge<A>(edge, across, at, v, k);
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
template <typename T, bool A>
__device__ static double sweep_edges(const spread_args<T, A> &a, const meeting &m,
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
    word *across_low = edge_rows_across(a, s.b, 0, slot ^ 1);
    word *across_high = edge_rows_across(a, s.b, 1, slot ^ 1);
    double acc = 0.0;
    for (int x = 1 + s.tx; x < lx - 1; x += a.threads_x) {
        T south, north;
        take_columns<1, A>(below ? below + x * n : NULL, above ? above + x * n : NULL, 0,
                           1, k, &south, &north, a.wait);
        if (low)
            acc += update_edge(a, in, out, x, south, in[lx + x], mine_low, across_low,
                               (long)x * n, k + 1);
        if (high)
            acc += update_edge(a, in, out, top + x, in[top - lx + x], north, mine_high,
                               across_high, (long)x * n, k + 1);
    }
    return acc;
}

/* Step 3 of a round (and the lap's start): the inner columns of the strip's first and
 * last edge_depth rows of iteration k (field f) into slot `slot`, tagged k, where a
 * neighbour takes them. */
template <typename T, bool A>
__device__ static void publish_edges(const spread_args<T, A> &a, const meeting &m,
                                     const strip<T> &s, long k, int slot, int f,
                                     int sweepers)
{
    const int n = words_of<T>::count, lx = (int)a.lx;
    const bool down = s.b > 0, up = s.b + 1 < a.blocks;
    word *first = edge_rows(a, m, s.b, 0, slot), *last = edge_rows(a, m, s.b, 1, slot);
    word *first_across = edge_rows_across(a, s.b, 0, slot);
    word *last_across = edge_rows_across(a, s.b, 1, slot);
    const int rows = edge_depth(a.depth);
    const T *own = own_rows(a, s, f), *top = own + (s.rows - rows) * lx;
    for (int x = 1 + threadIdx.x; x < lx - 1; x += sweepers)
        for (int r = 0; r < rows; r++) {
            const int i = r * lx + x;
            if (down)
                put_edge<A>(first, first_across, (long)i * n, own[i], k);
            if (up)
                put_edge<A>(last, last_across, (long)i * n, top[i], k);
        }
}

/* The lap's start: field[k % 2] (global memory, iteration k) into every field, the
 * halos' rows too (at a band's end, the tile's beside it), so that each field holds
 * the lattice's fixed edge sites (a sweep writes none, and take_halos only the halos'
 * inner columns). */
template <typename T, bool A>
__device__ static void load_strip(const spread_args<T, A> &a, const strip<T> &s, long k,
                                  int sweepers)
{
    const long first = max(s.y0 - a.depth, 0L);
    const long last = min(s.y0 + s.rows + a.depth, a.ly); /* rows first .. last - 1 */
    const long n = (last - first) * a.lx, skip = (first - (s.y0 - a.depth)) * a.lx;
    for (long i = threadIdx.x; i < n; i += sweepers) {
        const T v = row_of(a, k, first + i / a.lx)[i % a.lx];
        for (int f = 0; f < a.fields; f++)
            field_of(s, f)[skip + i] = v;
    }
}

/* The lap's end: the strip of iteration k into field[k % 2] (global memory). */
template <typename T, bool A>
__device__ static void store_strip(const spread_args<T, A> &a, const strip<T> &s, long k,
                                   int threads)
{
    store_rows(a, s, k, own_rows(a, s, (int)(k % a.fields)), threads);
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
template <bool HALOS, int UNROLL, typename T, bool A>
__device__ static void sweep_loop(const spread_args<T, A> &a, const meeting &m,
                                  const strip<T> &s, decisions *d, long start, long batch)
{
    __shared__ warp_sums_of warp_sums;
    __shared__ bool stop_seen[2]; /* thread 0 saw the stop in round r, at r % 2 */
    const int sweepers = a.threads_x * a.threads_y, warps = sweepers / 32;
    const long end = start + batch;
    long since_check = start % a.stop_rule.check_every;
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
            hand_warp_sum(v, takes_norm(a, k, &since_check), warp_sums, k);
            if (!HALOS && threadIdx.x == 0)
                stop_seen[round & 1] = stopped_by(d, k + 1 - a.fields);
            sweepers_meet(sweepers); /* the strip's new rows, its warps' sums, the stop */
            publish_block_sum(a, m, s, warp_sums, k, warps);
        }
        if (!HALOS && stop_seen[round & 1])
            break; /* likewise */
        if (HALOS)
            publish_edges(a, m, s, k, (round + 1) & 1, f, sweepers);
    }
}

#endif
