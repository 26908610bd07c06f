/*
 * rank_split.c - the loop's dealings with other MPI ranks (rank_split.h): the
 * split of the tiles, the shadows and their edges, the shared totals and flags.
 */
#include "mpi/rank_split.h"

#include <omp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/interrupt.h"

/* The shadow of tile n, seen from our tile `me` on `side`: one column (west,
 * east) or row (south, north) as long as our tile's edge. */
static void make_shadow(struct rank_split *r, struct tile *tiles, const struct tile *me,
                        int side, int n)
{
    struct tile_extent *thin = &r->thin[n];
    int across = side == SIDE_WEST || side == SIDE_EAST;
    *thin = tiles[n].extent[0];
    thin->lx = across ? 1 : me->extent->lx;
    thin->ly = across ? me->extent->ly : 1;
    tiles[n].extent = thin;
    tiles[n].remote = 1;
    tiles[n].device = me->device;
}

/* The edges between our tiles and the other ranks' (each a link) and the two
 * messages of each; their buffers come when the tile's thread opens its shadows.
 * 0, or -1 out of memory. */
static int make_links(struct rank_split *r, const struct partition *p, struct tile *tiles)
{
    int me_rank = ranks_rank(), most = 4 * r->local_count;
    r->links = calloc((size_t)(most ? most : 1), sizeof *r->links);
    r->messages = calloc((size_t)(2 * most + 1), sizeof *r->messages);
    if (!r->links || !r->messages)
        return -1;
    for (int i = 0; i < r->local_count; i++) {
        struct tile *me = &tiles[r->local[i]];
        for (int side = 0; side < SIDE_COUNT; side++) {
            int n = p->tiles[me->index].neighbour[side];
            if (n < 0 || r->owner[n] == me_rank)
                continue;
            make_shadow(r, tiles, me, side, n);
            struct rank_link *l = &r->links[r->link_count];
            *l = (struct rank_link){.tile = me, .side = side, .shadow = &tiles[n]};
            l->bytes = device_tile_field_bytes(l->shadow);
            /* a message's tag: the sending tile and the side it sends on */
            r->messages[2 * r->link_count] = (struct rank_message){
                r->owner[n], me->index * SIDE_COUNT + side, NULL, l->bytes, 0};
            r->messages[2 * r->link_count + 1] = (struct rank_message){
                r->owner[n], n * SIDE_COUNT + side_opposite(side), NULL, l->bytes, 1};
            r->link_count++;
        }
    }
    return 0;
}

int rank_split_make(struct rank_split *r, const struct partition *p, int rx, int ry,
                    struct tile *tiles)
{
    if (rx < 1 || ry < 1)
        rx = ry = 1; /* settings that name no ranks: one process */
    int n = partition_count(p), size = rx * ry;
    memset(r, 0, sizeof *r);
    r->distributed = size > 1;
    r->local = calloc((size_t)n, sizeof *r->local);
    r->owner = calloc((size_t)n, sizeof *r->owner);
    r->thin = calloc((size_t)n, sizeof *r->thin);
    r->counts = calloc((size_t)size, sizeof *r->counts);
    r->mine = calloc((size_t)n + 2, sizeof *r->mine);
    r->all = calloc((size_t)(n + 2 * size), sizeof *r->all);
    r->next = calloc((size_t)size, sizeof *r->next);
    r->tile_count = n;
    if (!r->local || !r->owner || !r->thin || !r->counts || !r->mine || !r->all ||
        !r->next)
        return -1;
    int me_rank = r->distributed ? ranks_rank() : 0;
    rank_part_make(&r->part, p, rx, ry, me_rank);
    for (int rank = 0; rank < size; rank++)
        r->counts[rank] = 2;
    for (int t = 0; t < n; t++) {
        r->owner[t] = partition_rank_of(p, rx, ry, t);
        r->counts[r->owner[t]]++;
        if (r->owner[t] == me_rank)
            r->local[r->local_count++] = t;
    }
    return r->distributed ? make_links(r, p, tiles) : 0;
}

void rank_split_free(struct rank_split *r)
{
    free(r->links); /* their buffers went with the shadows (rank_split_shadows_close) */
    free(r->messages);
    free(r->local);
    free(r->owner);
    free(r->thin);
    free(r->counts);
    free(r->mine);
    free(r->all);
    free(r->next);
    memset(r, 0, sizeof *r);
}

/* Host memory for one edge of tile me: where its device copies fastest. */
static void *edge_buffer(const struct device_ops *ops, struct tile *me, size_t bytes)
{
    return ops->edge_buffer ? ops->edge_buffer(me, bytes) : malloc(bytes);
}

static void edge_buffer_free(const struct device_ops *ops, struct tile *me, void *edge_h)
{
    if (!edge_h)
        return;
    if (ops->edge_buffer_free)
        ops->edge_buffer_free(me, edge_h);
    else
        free(edge_h);
}

int rank_split_shadows_open(struct rank_split *r, const struct device_ops *ops,
                            struct tile *me)
{
    for (int i = 0; i < r->link_count; i++) {
        struct rank_link *l = &r->links[i];
        if (l->tile != me)
            continue;
        if (!ops->shadow_open) {
            snprintf(me->error, sizeof me->error,
                     "the %s backend cannot read another rank's edges", ops->name);
            return -1;
        }
        if (ops->shadow_open(me, l->shadow) != 0)
            return -1;
        l->send_h = r->messages[2 * i].data = edge_buffer(ops, me, l->bytes);
        l->receive_h = r->messages[2 * i + 1].data = edge_buffer(ops, me, l->bytes);
        if (!l->send_h || !l->receive_h) {
            snprintf(me->error, sizeof me->error,
                     "out of host memory for the edges of another rank (%zu bytes)",
                     l->bytes);
            return -1;
        }
    }
    return 0;
}

void rank_split_shadows_close(struct rank_split *r, const struct device_ops *ops,
                              struct tile *me)
{
    for (int i = 0; i < r->link_count; i++) {
        struct rank_link *l = &r->links[i];
        if (l->tile != me)
            continue;
        if (ops->shadow_close) /* first: it waits for what may still copy the edges */
            ops->shadow_close(me, l->shadow);
        edge_buffer_free(ops, me, l->send_h);
        edge_buffer_free(ops, me, l->receive_h);
        l->send_h = l->receive_h = r->messages[2 * i].data = r->messages[2 * i + 1].data =
            NULL;
    }
}

int rank_split_edges_read(struct rank_split *r, const struct device_ops *ops,
                          struct tile *me, int which)
{
    for (int i = 0; i < r->link_count; i++) {
        struct rank_link *l = &r->links[i];
        if (l->tile == me && ops->edge_read(me, l->side, which, l->send_h) != 0)
            return -1;
    }
    return 0;
}

int rank_split_edges_wait(struct rank_split *r, const struct device_ops *ops,
                          struct tile *me)
{
    for (int i = 0; i < r->link_count; i++)
        if (r->links[i].tile == me && ops->edges_wait)
            return ops->edges_wait(me); /* every edge of the tile at once */
    return 0;
}

void rank_split_edges_exchange(struct rank_split *r)
{
    double start = omp_get_wtime();
    ranks_exchange(r->messages, 2 * r->link_count);
    r->exchange_s += omp_get_wtime() - start;
}

int rank_split_edges_write(struct rank_split *r, const struct device_ops *ops,
                           struct tile *me, int which)
{
    for (int i = 0; i < r->link_count; i++) {
        struct rank_link *l = &r->links[i];
        if (l->tile == me && ops->shadow_write(me, l->shadow, which, l->receive_h) != 0)
            return -1;
    }
    return 0;
}

/* What a failing rank tells the others: its device, its node and its message. */
struct failure_note {
    int device;
    char node[sizeof((struct solve_result *)0)->failed_node];
    char error[sizeof((struct solve_result *)0)->error];
};

/* Every rank learns the first failing rank's note. */
static void share_failure(int first, struct solve_result *result)
{
    struct failure_note note = {.device = result->failed_device};
    snprintf(note.node, sizeof note.node, "%s", ranks_node());
    snprintf(note.error, sizeof note.error, "%s", result->error);
    ranks_share(first, &note, sizeof note);
    result->reason = STOP_FAILED;
    result->failed_rank = first;
    result->failed_device = note.device;
    snprintf(result->failed_node, sizeof result->failed_node, "%.*s",
             (int)sizeof note.node - 1, note.node);
    snprintf(result->error, sizeof result->error, "%.*s", (int)sizeof note.error - 1,
             note.error);
}

int rank_split_agree(struct rank_split *r, int failed, struct solve_result *result)
{
    if (!r->distributed)
        return failed;
    int first = ranks_first_flagged(failed);
    if (first >= 0 && result->failed_rank == -1) /* once: every rank has failed since */
        share_failure(first, result);
    return first >= 0;
}

int rank_split_share(struct rank_split *r, int *failed, double *tile_sums,
                     struct solve_result *result)
{
    int signal = interrupt_requested();
    if (!r->distributed)
        return signal;
    r->mine[0] = *failed;
    r->mine[1] = signal;
    signal = 0; /* the signal of the lowest rank that has one, for every rank alike */
    for (int i = 0; i < r->local_count; i++)
        r->mine[2 + i] = tile_sums[r->local[i]];
    ranks_gather_all(r->mine, r->counts, r->all);
    int first = -1, size = ranks_size(), at = 0;
    for (int rank = 0; rank < size; at += r->counts[rank++]) {
        if (r->all[at] != 0.0 && first < 0)
            first = rank;
        if (r->all[at + 1] != 0.0 && !signal)
            signal = (int)r->all[at + 1];
        r->next[rank] = at + 2;
    }
    /* a rank's tiles come in tile order, as it sent them */
    for (int t = 0; t < r->tile_count; t++)
        tile_sums[t] = r->all[r->next[r->owner[t]]++];
    if (first >= 0 && result->failed_rank == -1)
        share_failure(first, result);
    *failed = first >= 0;
    if (signal)
        interrupt_adopt(signal);
    return signal;
}
