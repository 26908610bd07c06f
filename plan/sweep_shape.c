/*
 * sweep_shape.c - the loop plan's choice of a GPU tile's sweep (sweep_shape.h): the
 * kernel asked for (auto: rows, or general where the update rule is not plain Jacobi),
 * the block asked for (0 x 0: 32x8, or for rows a block that grows with the tile's
 * bytes) and, for rows, 32 bytes of column a thread, fewer rows where that leaves the
 * GPU under a third of the threads its multiprocessors hold; with --reduce device,
 * where every block sum is added on the device each iteration, the fewer blocks of
 * 32x8 and 64 bytes a thread. For rows, every other sweep runs its rows of blocks in
 * reverse order where the two fields exceed the GPU's L2. Then the grid, once, and
 * whether block and grid fit the GPU. Every number that decides is here, with the
 * measurement behind it.
 */
#include "plan/sweep_shape.h"

#include <stdio.h>

long sweep_shape_grid(const struct sweep_shape *s, long lx, long ly, long *blocks_x,
                      long *blocks_y)
{
    const long columns = (long)s->block_x * s->columns_per_thread;
    const long rows = (long)s->block_y * s->rows_per_thread;
    *blocks_x = (lx + columns - 1) / columns;
    *blocks_y = (ly + rows - 1) / rows;
    return *blocks_x * *blocks_y;
}

/*
 * The rows kernel's block for a tile of `bytes` (one field): wider as the tile grows,
 * so that a warp's rows run longer in memory, and small while the tile gives the
 * device only a few waves of blocks. Measured on an H100 with the norm every
 * iteration, us an iteration of this block against 32x8, which every tile took
 * before (results/2026-11-26-l2/shapes.csv, 7 blocks x 4 or 8 rows):
 * float 2048^2 (16 MiB) 32x4 15.22/15.83, 4096^2 (64 MiB) 32x4 54.52/55.61, 5792^2
 * 64x4 103.68/105.36, 8192^2 (256 MiB) 64x4 198.53/200.35, 16384^2 128x4 757.31/767.62;
 * double 4096^2 (128 MiB) 64x4 102.78/103.64, 8192^2 128x4 384.44/390.28, 11585^2
 * 128x4 734.81/793.21 (4 rows a thread; single floats at 11585^2 8 rows: 128x4
 * 413.67 against 32x8 537.36).
 */
static void rows_block_of(double bytes, struct sweep_shape *s)
{
    const double mib = 1024.0 * 1024.0;
    s->block_x = bytes <= 64 * mib ? 32 : bytes <= 256 * mib ? 64 : 128;
    s->block_y = 4;
}

/*
 * The shape s with its rows a thread for a tile of lx x ly values of value_size on a
 * device that holds device_threads threads at once: a thread covers `span` bytes of
 * its columns (32: 4 rows of float pairs, 8 of single floats, 4 of doubles; double
 * pairs take the fewest instantiated, 4), fewer rows (down to 4) where that would
 * leave the device under a third full, and 1 row where even 4 would. Measured on an
 * H100 with the norm every iteration, us an iteration at the best block
 * (results/2026-11-26-l2/shapes.csv): float pairs 4096^2 54.52 at 4 rows against
 * 61.16 at 8 (32x8), 16384^2 757.31 against 754.85 (128x4); single floats 11585^2
 * 413.67 at 8 rows against 421.27 at 4; single doubles 11585^2 734.81 at 4 against
 * 780.39 at 8; 1024^2 (a half-full device) 7.7 at 4, 8.5 at 1 (results/2026-11-25-sweep).
 */
static struct sweep_shape with_rows(struct sweep_shape s, long lx, long ly,
                                    size_t value_size, long device_threads, int span)
{
    const int most = (int)(span / (value_size * (size_t)s.columns_per_thread));
    for (int rows = most > 4 ? most : 4; rows >= 4; rows /= 2) { /* 16, 8, 4 exist */
        s.rows_per_thread = rows;
        long gx, gy;
        if (sweep_shape_grid(&s, lx, ly, &gx, &gy) * s.block_x * s.block_y >=
            device_threads / 3)
            return s;
    }
    s.rows_per_thread = 1;
    return s;
}

/* The block every kernel takes unless asked (the rows kernel: where few_blocks() says),
 * and the bytes of column a rows thread covers (with_rows): 32, and 64 in the fewer
 * blocks of few_blocks(). */
#define BLOCK_X 32
#define BLOCK_Y 8
#define ROWS_SPAN_BYTES 32
#define FEW_BLOCKS_SPAN_BYTES 64
#define GRID_Y_MOST 65535 /* CUDA's most blocks up a grid, on every device */

/*
 * The rows shape of fewer, larger blocks (32x8, 64 bytes of column a thread) that every
 * tile took before results/2026-11-26-l2. Taken where the device adds every block's
 * sum each iteration (--reduce device), whose cost grows with the blocks (probe-8,
 * --reduce device float 2048^2: 17.37 us an iteration so, 21.89 in the other), where a
 * tile is too small for 4 rows a thread (1024^2 float on 2x1 tiles of one GPU: 8.49 in
 * 32x8 blocks, 8.79 in 32x4; final-2.log), and where a very tall tile would need more
 * than GRID_Y_MOST blocks up.
 */
static struct sweep_shape few_blocks(struct sweep_shape s, long lx, long ly,
                                     size_t value_size, long device_threads)
{
    s.block_x = BLOCK_X;
    s.block_y = BLOCK_Y;
    return with_rows(s, lx, ly, value_size, device_threads, FEW_BLOCKS_SPAN_BYTES);
}

/*
 * Whether every other sweep of the rows kernel runs its rows of blocks backwards: where
 * the tile's two fields do not fit in L2 together. Blocks start roughly in the order
 * of their index, so a backwards sweep starts on the rows the sweep before it wrote
 * last, which L2 still holds, and the next forward sweep on the rows it wrote last.
 * Which block runs which place changes nothing else (each place's sites and partial
 * sum are the same), so the bits are the same either way. Measured on an H100, us an
 * iteration, forward -> alternating, one binary (results/2026-11-26-order, final-11,
 * whose backwards sweeps reversed each row of blocks too): float 2896^2 31.67 -> 28.45,
 * 4096^2 53.95 -> 50.45, 8192^2 197.35 -> 195.03, 16384^2 761.07 -> 761.61; double
 * 2048^2 28.57 -> 26.78, 4096^2 101.05 -> 98.52, 8192^2 378.72 -> 377.33. As written
 * here, against 9bc95e3 (final-12): float 4096^2 54.09 -> 50.93, 8192^2 198.12 ->
 * 196.02, 16384^2 759.32 -> 759.18, double 2048^2 28.68 -> 27.06. Where both fields
 * fit (float 2048^2) nothing is gained (probe-4: 14.89 -> 15.07), so those keep one
 * order; so do the other kernels (SOR's general kernel gained nothing, probe-1).
 */
static int sweeps_alternate(long lx, long ly, size_t value_size, size_t l2_bytes)
{
    return 2.0 * (double)lx * (double)ly * (double)value_size > (double)l2_bytes;
}

/* The kernel s asks for; auto: rows for plain Jacobi, else the general kernel. */
static enum kernel_variant kernel_asked(const struct tile_settings *s)
{
    if (s->kernel != KERNEL_AUTO)
        return (enum kernel_variant)s->kernel;
    return update_rule_is_plain_jacobi(&s->update_rule) ? KERNEL_ROWS : KERNEL_GENERAL;
}

/* The shape for a tile of lx x ly values of value_size on GPU g, as s asks. */
static struct sweep_shape choose(const struct tile_settings *s, long lx, long ly,
                                 size_t value_size, const struct gpu_facts *g)
{
    const int auto_block = s->block_x <= 0 || s->block_y <= 0;
    struct sweep_shape shape = {.kernel = kernel_asked(s),
                                .block_x = auto_block ? BLOCK_X : s->block_x,
                                .block_y = auto_block ? BLOCK_Y : s->block_y,
                                .rows_per_thread = 1,
                                .columns_per_thread = 1};
    if (shape.kernel != KERNEL_ROWS)
        return shape;
    /* Pairs of columns when every row starts aligned (even width). */
    shape.columns_per_thread = lx % 2 == 0 ? 2 : 1;
    shape.alternate = sweeps_alternate(lx, ly, value_size, g->l2_bytes);
    const long device_threads = (long)g->multiprocessors * g->threads_per_multiprocessor;
    if (!auto_block)
        return with_rows(shape, lx, ly, value_size, device_threads, ROWS_SPAN_BYTES);
    if (s->reduce == REDUCE_DEVICE)
        return few_blocks(shape, lx, ly, value_size, device_threads);
    rows_block_of((double)lx * (double)ly * (double)value_size, &shape);
    shape = with_rows(shape, lx, ly, value_size, device_threads, ROWS_SPAN_BYTES);
    long gx, gy;
    sweep_shape_grid(&shape, lx, ly, &gx, &gy);
    if (shape.rows_per_thread == 1 || gy > GRID_Y_MOST)
        return few_blocks(shape, lx, ly, value_size, device_threads);
    return shape;
}

/* The rows kernel's order of rows of blocks as LAPLACE_TUNE's sweep_order asks
 * (support/tuning.h; TUNING_AUTO: the shape's own). */
static struct sweep_shape ordered(struct sweep_shape shape, int sweep_order)
{
    if (shape.kernel == KERNEL_ROWS && sweep_order != TUNING_AUTO)
        shape.alternate = sweep_order == TUNING_ORDER_ALTERNATE;
    return shape;
}

int sweep_shape_plan(const struct tile_settings *s, const struct tile_offer *o,
                     struct tile_plan *p, char *why, size_t n)
{
    const struct gpu_facts *g = &o->facts;
    p->shape = ordered(choose(s, o->lx, o->ly, o->value_size, g), s->tune.sweep_order);
    p->block_count =
        sweep_shape_grid(&p->shape, o->lx, o->ly, &p->blocks_x, &p->blocks_y);
    const int bx = p->shape.block_x, by = p->shape.block_y;
    if (bx * by > g->block_threads_most || bx > g->block_most[0] ||
        by > g->block_most[1]) {
        snprintf(why, n,
                 "block %dx%d does not fit GPU %d (%s): at most %d threads, %dx%d", bx,
                 by, o->device, g->name, g->block_threads_most, g->block_most[0],
                 g->block_most[1]);
        return -1;
    }
    if (p->blocks_x > g->grid_most[0] || p->blocks_y > g->grid_most[1]) {
        snprintf(
            why, n,
            "tile %ldx%ld needs a grid of %ldx%ld blocks; GPU %d allows %ldx%ld (use "
            "a taller --block)",
            o->lx, o->ly, p->blocks_x, p->blocks_y, o->device, g->grid_most[0],
            g->grid_most[1]);
        return -1;
    }
    return 0;
}
