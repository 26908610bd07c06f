/*
 * laplace_loop.cu - the loop of a lone tile run by the device alone (--reduce
 * device, one tile): one resident kernel for a whole batch of iterations and its
 * extern "C" launcher.
 *
 * Its blocks take the rows kernel's blocks in turn, so the partial sums are the
 * same; after a grid-wide barrier every block adds them in the fixed order and
 * takes the same stopping decision. No host round trip and no launch per
 * iteration.
 */
#include "kernels/laplace_loop.h"

#include <cooperative_groups.h>

#include "kernels/laplace_block_sums.cuh"
#include "kernels/laplace_sites.cuh"

/*
 * The loop of a lone tile for up to `batch` iterations, in one resident
 * (cooperative) kernel. Each block takes the blocks v = blockIdx.x,
 * blockIdx.x + gridDim.x, ... of the rows kernel's grid (gx wide, n in all),
 * so the partial sums are that kernel's. Iteration k's sums go to
 * sums[(k % 2) * n + v]; after the grid-wide barrier every block adds them in
 * the fixed order and reaches the same decision, so no second barrier is needed:
 * the next iteration writes the other half of sums and the other field.
 */
template <int R, int V, typename T>
__global__ void __launch_bounds__(1024, 1)
    loop_rows(T *field0, T *field1, long lx, long ly, long gx, long n, long batch,
              double *sums, stop_state *state, stop_rule rule, T scale)
{
    __shared__ double lane[BLOCK_SUM_LANES];
    const edges<T> none = {};
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    const bool writer = blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0;
    stop_state mine =
        *state; /* read before the first barrier, after which block 0 writes */
    for (long b = 0; b < batch && !mine.stopped; b++) {
        const long iteration = mine.iteration + 1;
        const T *old = iteration % 2 ? field0 : field1;
        T *out = iteration % 2 ? field1 : field0;
        double *these = sums + (iteration % 2) * n;
        for (long v = blockIdx.x; v < n; v += gridDim.x) {
            const double t = block_total(
                rows_block<R, V>(old, out, lx, ly, none, v % gx, v / gx, scale));
            if (threadIdx.x == 0 && threadIdx.y == 0)
                these[v] = t;
        }
        grid.sync();
        const bool check = stop_rule_wants_norm(&rule, iteration);
        if (check)
            add_in_lanes(these, n, lane);
        /* every thread takes the one decision (stop_rule.h), with the same answer */
        stop_state_step(&rule, &mine, iteration, check,
                        check ? stop_rule_norm(&rule, lane[0]) : NAN);
        if (writer)
            *state = mine;
    }
}

template <int R, int V, typename T>
static cudaError_t launch_loop(const sweep_launch *l, void *f0, void *f1, long batch,
                               double *sums, stop_state *state, stop_rule rule,
                               int multiprocessors, cudaStream_t stream)
{
    long gx, gy;
    const long n = laplace_kernels_grid(&l->shape, l->lx, l->ly, &gx, &gy);
    const dim3 block(l->shape.block_x, l->shape.block_y);
    int per_sm = 0;
    cudaError_t rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, loop_rows<R, V, T>, (int)(block.x * block.y), 0);
    if (rc != cudaSuccess)
        return rc;
    /* Every block resident at once, as a grid-wide barrier needs. */
    const long resident = (long)per_sm * multiprocessors;
    const dim3 grid((unsigned)(n < resident ? n : resident));
    T *field0 = (T *)f0, *field1 = (T *)f1;
    long lx = l->lx, ly = l->ly;
    T scale = (T)update_rule_square_scale(&l->rule);
    void *args[] = {&field0, &field1, &lx,    &ly,   &gx,   (void *)&n,
                    &batch,  &sums,   &state, &rule, &scale};
    return cudaLaunchCooperativeKernel((const void *)loop_rows<R, V, T>, grid, block,
                                       args, 0, stream);
}

template <typename T>
static cudaError_t launch_loop_of(const sweep_launch *l, void *f0, void *f1, long batch,
                                  double *sums, stop_state *state, stop_rule rule,
                                  int sms, cudaStream_t stream)
{
    const bool pairs = l->shape.columns_per_thread == 2;
    switch (l->shape.rows_per_thread) {
    case 16:
        return pairs ? launch_loop<16, 2, T>(l, f0, f1, batch, sums, state, rule, sms,
                                             stream)
                     : launch_loop<16, 1, T>(l, f0, f1, batch, sums, state, rule, sms,
                                             stream);
    case 8:
        return pairs ? launch_loop<8, 2, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream)
                     : launch_loop<8, 1, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream);
    case 4:
        return pairs ? launch_loop<4, 2, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream)
                     : launch_loop<4, 1, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream);
    default:
        return pairs ? launch_loop<1, 2, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream)
                     : launch_loop<1, 1, T>(l, f0, f1, batch, sums, state, rule, sms,
                                            stream);
    }
}

extern "C" cudaError_t laplace_loop(const struct sweep_launch *tile, void *field0,
                                    void *field1, long batch, double *sums,
                                    struct stop_state *state, struct stop_rule rule,
                                    int multiprocessors, cudaStream_t stream)
{
    if (tile->precision == PRECISION_FLOAT)
        return launch_loop_of<float>(tile, field0, field1, batch, sums, state, rule,
                                     multiprocessors, stream);
    return launch_loop_of<double>(tile, field0, field1, batch, sums, state, rule,
                                  multiprocessors, stream);
}
