/*
 * laplace_sites.cuh - what every sweep kernel does at its sites, included by
 * the .cu files of the kernels (laplace_kernels.cu, laplace_chip.cu,
 * laplace_spread.cu): the neighbours' edges and the loads (plain or through the
 * read-only cache), the Jacobi update in the design's order of additions, the
 * square of an update as the norm adds it, any update rule's site (rule_args,
 * rule_site), the rows kernel's walk over one block of its grid, and how the loops
 * on chip walk a column (walk_column), share a strip of rows among a block's
 * threads (strip_threads) and meet apart from a deciding warp (sweepers_meet).
 */
#ifndef LAPLACE_SITES_CUH
#define LAPLACE_SITES_CUH

template <typename T> struct edges {
    const T *west, *east, *south, *north;
    long west_stride, east_stride;
};

template <bool READONLY, typename T> __device__ __forceinline__ T load(const T *p)
{
    if (READONLY)
        return __ldg(p);
    return *p;
}

/* The old value at (x, y) of the tile, one step outside it included. */
template <bool READONLY, typename T>
__device__ __forceinline__ T old_at(const T *old, const edges<T> &e, long x, long y,
                                    long lx, long ly)
{
    if (x < 0)
        return e.west ? load<READONLY>(e.west + y * e.west_stride) : T(0);
    if (x >= lx)
        return e.east ? load<READONLY>(e.east + y * e.east_stride) : T(0);
    if (y < 0)
        return e.south ? load<READONLY>(e.south + x) : T(0);
    if (y >= ly)
        return e.north ? load<READONLY>(e.north + x) : T(0);
    return load<READONLY>(old + x + y * lx);
}

/* A site on the edge of the whole lattice keeps its value. */
template <typename T>
__device__ __forceinline__ bool is_fixed(const edges<T> &e, long x, long y, long lx,
                                         long ly)
{
    return (x == 0 && !e.west) || (x == lx - 1 && !e.east) || (y == 0 && !e.south) ||
           (y == ly - 1 && !e.north);
}

template <typename T>
__device__ __forceinline__ T jacobi(T south, T west, T east, T north)
{
    return T(0.25) * (((south + west) + east) + north);
}

/* The square of an update as the norm adds it (update_rule.h): d times the
 * square scale 2^-k (1 for every ordinary run), squared in T. */
template <typename T> __device__ __forceinline__ double square_of(T d, T scale)
{
    const T e = d * scale;
    return (double)(e * e);
}

/* The update rule's numbers in the working precision, converted once on the host
 * as the host backends convert them, so that every backend computes the same bits. */
template <typename T> struct rule_args {
    T cx, cy, omega, keep; /* keep = 1 - omega, formed in double */
    T square_scale;        /* 2^-k of update_rule.h (square_of) */
    bool anisotropic, relaxed, residual, max;
    int colour;        /* -1: every site; SOR: 0 red, 1 black */
    long first_colour; /* site (x, y) is red when first_colour + x + y is even */
    const T *source;   /* per-site b, or NULL */
    const unsigned char *fixed;
};

/* The rule's numbers for a launch (its colour and the tile's first colour included). */
template <typename T> static rule_args<T> rule_of(const sweep_launch *l)
{
    const update_rule &u = l->update_rule;
    rule_args<T> r = {(T)u.cx,
                      (T)u.cy,
                      (T)u.omega,
                      (T)(1.0 - u.omega),
                      (T)update_rule_square_scale(&u),
                      u.anisotropic != 0,
                      u.method != METHOD_JACOBI,
                      u.norm == NORM_RESIDUAL,
                      u.norm == NORM_MAX,
                      l->colour,
                      l->first_colour,
                      (const T *)l->source,
                      l->fixed};
    return r;
}

/* Whether the rule updates site i of the tile, x + y its coordinates' sum: the
 * phase's colour (SOR), and not a fixed region's site. */
template <typename T>
__device__ __forceinline__ bool rule_updates(const rule_args<T> &r, long i, long xy)
{
    return !((r.colour >= 0 && (r.first_colour + xy) % 2 != r.colour) ||
             (r.fixed && r.fixed[i]));
}

/* The rule's new value of site i from its neighbours and its own old value, into
 * *out; returns what the norm adds for the site (update_rule.h). */
template <typename T>
__device__ __forceinline__ double rule_site(const rule_args<T> &r, T south, T west,
                                            T east, T north, long i, T old, T *out)
{
    T gs = r.anisotropic ? r.cx * (west + east) + r.cy * (south + north)
                         : jacobi(south, west, east, north);
    if (r.source)
        gs = gs + r.source[i];
    const T v = r.relaxed ? r.omega * gs + r.keep * old : gs;
    const T d = (r.residual ? gs : v) - old;
    *out = v;
    return r.max ? fabs((double)d) : square_of(d, r.square_scale);
}

/* Updates one site with every edge case handled; returns (new - old)^2, scaled
 * (square_of). */
template <bool READONLY, typename T>
__device__ __forceinline__ double update_site(const T *old, T *out, const edges<T> &e,
                                              long x, long y, long lx, long ly, T scale)
{
    if (x >= lx || y >= ly || is_fixed(e, x, y, lx, ly))
        return 0.0;
    const T v = jacobi(old_at<READONLY>(old, e, x, y - 1, lx, ly),
                       old_at<READONLY>(old, e, x - 1, y, lx, ly),
                       old_at<READONLY>(old, e, x + 1, y, lx, ly),
                       old_at<READONLY>(old, e, x, y + 1, lx, ly));
    const T d = v - load<READONLY>(old + x + y * lx);
    out[x + y * lx] = v;
    return square_of(d, scale);
}

/* V values of type T that load and store as one (8 or 16 bytes for V = 2). */
template <typename T, int V> struct packed {
    T v[V];
};
template <> struct __align__(8) packed<float, 2>
{
    float v[2];
};
template <> struct __align__(16) packed<double, 2>
{
    double v[2];
};

/* rows, for a block away from the tile's edges: no edge logic, wide plain loads. */
template <int R, int V, typename T>
__device__ __forceinline__ double rows_inside(const T *__restrict__ old,
                                              T *__restrict__ out, long lx, long x,
                                              long y0, T scale)
{
    typedef packed<T, V> P;
    const T *p = old + x + y0 * lx; /* the first of the thread's V sites, row by row */
    P south = *reinterpret_cast<const P *>(p - lx),
      here = *reinterpret_cast<const P *>(p);
    const int lane = (threadIdx.x + threadIdx.y * blockDim.x) & 31;
    const bool warp_is_a_row = (blockDim.x & 31) == 0; /* lanes are neighbours in x */
    double square = 0.0;
#pragma unroll
    for (int r = 0; r < R; r++, p += lx) {
        const P north = *reinterpret_cast<const P *>(p + lx);
        /* west and east: from the neighbouring lanes' registers where they can */
        T west = __shfl_up_sync(0xffffffffu, here.v[V - 1], 1);
        T east = __shfl_down_sync(0xffffffffu, here.v[0], 1);
        if (!warp_is_a_row || lane == 0)
            west = p[-1];
        if (!warp_is_a_row || lane == 31)
            east = p[V];
        P v;
#pragma unroll
        for (int i = 0; i < V; i++) {
            v.v[i] = jacobi(south.v[i], i > 0 ? here.v[i - 1] : west,
                            i < V - 1 ? here.v[i + 1] : east, north.v[i]);
            const T d = v.v[i] - here.v[i];
            square += square_of(d, scale);
        }
        *reinterpret_cast<P *>(out + (p - old)) = v;
        south = here;
        here = north;
    }
    return square;
}

/* The rows kernel's work for the block at (bx, by) of its grid: thread (i, j)
 * updates columns V*i ... V*i + V-1 and rows R*j ... R*j + R-1 of that block;
 * returns the thread's sum of (new - old)^2. */
template <int R, int V, typename T>
__device__ __forceinline__ double rows_block(const T *__restrict__ old,
                                             T *__restrict__ out, long lx, long ly,
                                             const edges<T> &e, long bx, long by, T scale)
{
    const long x = (bx * blockDim.x + threadIdx.x) * V;
    const long y0 = (by * blockDim.y + threadIdx.y) * R;
    const long block_x0 = bx * blockDim.x * V, block_y0 = by * blockDim.y * R;
    if (block_x0 >= 1 && block_x0 + (long)blockDim.x * V <= lx - 1 && block_y0 >= 1 &&
        block_y0 + (long)blockDim.y * R <= ly - 1)
        return rows_inside<R, V>(old, out, lx, x, y0, scale);
    double square = 0.0;
    for (int r = 0; r < R; r++)
        for (int i = 0; i < V; i++)
            square += update_site<false>(old, out, e, x + i, y0 + r, lx, ly, scale);
    return square;
}

/* Plain Jacobi up column x of a field in shared memory (rows lx apart), rows y0 .. y1
 * - 1 from `in` into `out`, carrying the south and centre values in registers, as the
 * loops on chip walk their strips (laplace_chip_rounds.cuh, laplace_spread.cu). Adds to
 * acc the squares of the updates of rows own_lo .. own_hi - 1 (ALL: of every row), in
 * row order. The loop is unrolled UNROLL rows at a time: the loads of those rows go out
 * together, and a walk whose rows are not a multiple of UNROLL ends in a slower loop
 * over the rest (the compiler takes 4 unless told). */
template <bool ALL, int UNROLL, typename T>
__device__ __forceinline__ double walk_column(const T *in, T *out, int lx, int x, int y0,
                                              int y1, int own_lo, int own_hi, T scale,
                                              double acc)
{
    int i = y0 * lx + x;
    T south = in[i - lx], here = in[i];
#pragma unroll(UNROLL)
    for (int y = y0; y < y1; y++, i += lx) {
        const T north = in[i + lx];
        const T v = jacobi(south, in[i - 1], in[i + 1], north);
        out[i] = v;
        if (ALL || (y >= own_lo && y < own_hi))
            acc += square_of(v - here, scale);
        south = here;
        here = north;
    }
    return acc;
}

/* The sweeping threads of a loop on chip's block meet (barrier 1, which its deciding
 * warp does not join; not .aligned: thread 0 may arrive after the other lanes of its
 * warp). */
__device__ __forceinline__ void sweepers_meet(int sweepers)
{
    __syncwarp();
    asm volatile("barrier.sync 1, %0;" ::"r"(sweepers) : "memory");
}

/* How a strip of `rows` rows of an lx-wide tile is shared among a block's threads
 * (laplace_chip.cu, laplace_spread.cu): a thread a column of the interior, up to `most`
 * columns (none walks two while others walk one), and rows of threads up to at least
 * `least` threads, never more than `most`. */
static inline void strip_threads(long lx, long rows, long least, long most,
                                 int *threads_x, int *threads_y)
{
    const long columns = ((lx - 2 + 31) / 32) * 32; /* the interior columns, in warps */
    *threads_x = (int)(columns < most ? columns : most);
    long down = (least + *threads_x - 1) / *threads_x;
    down = down * *threads_x > most ? most / *threads_x : down;
    *threads_y = (int)(rows < down ? rows : down);
}

#endif
