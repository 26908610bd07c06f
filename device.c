/*
 * device.c - what both implementations of the device interface share: the one
 * fixed order in which a tile's block partial sums are added.
 */
#include "device.h"

#include <math.h>

size_t tile_field_bytes(const struct tile *t)
{
    return (size_t)t->extent->lx * (size_t)t->extent->ly * precision_size(t->precision);
}

double block_sums_total(const double *sums, long n)
{
    double lane[BLOCK_SUM_LANES] = {0.0};
    for (long b = 0; b < n; b++)
        lane[b % BLOCK_SUM_LANES] += sums[b];
    for (int half = BLOCK_SUM_LANES / 2; half > 0; half /= 2)
        for (int j = 0; j < half; j++)
            lane[j] += lane[j + half];
    return lane[0];
}

int stop_rule_wants_norm(const struct stop_rule *rule, long k)
{
    return k % rule->check_every == 0;
}

int stop_rule_test(const struct stop_rule *rule, long k, int has_norm, double norm,
                   int *reason)
{
    if (has_norm && !isfinite(norm))
        return *reason = 2, 1; /* diverged */
    if (has_norm && stop_rule_wants_norm(rule, k) && norm < rule->eps)
        return *reason = 0, 1; /* converged */
    if (k >= rule->max_iter)
        return *reason = 1, 1; /* max-iter */
    return 0;
}
