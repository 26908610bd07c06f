/*
 * p2p.c - device list, names, the peer-capability matrix and enabling peer
 * access. Every CUDA return code is checked; without CUDA the functions say so.
 */
#include "p2p.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/error.h"

#ifdef HAVE_CUDA
#include <cuda_runtime_api.h>

int p2p_device_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); /* no driver or no device: the run falls back to the CPU */
        return 0;
    }
    return count;
}

void p2p_none_reason(char *text, size_t n)
{
    int count = 0, driver = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    const char *hidden = getenv("CUDA_VISIBLE_DEVICES");
    cudaGetLastError();
    if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0)
        snprintf(text, n, "no CUDA driver found");
    else if (rc == cudaSuccess || rc == cudaErrorNoDevice)
        snprintf(text, n, "no CUDA device is visible%s%s%s",
                 hidden ? " (CUDA_VISIBLE_DEVICES=" : "", hidden ? hidden : "",
                 hidden ? ")" : "");
    else
        snprintf(text, n, "CUDA cannot list the GPUs: %s", cudaGetErrorString(rc));
}

void p2p_runtime_version(char *text, size_t n)
{
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    if (cudaDriverGetVersion(&driver) != cudaSuccess)
        driver = 0;
    if (driver == 0)
        snprintf(text, n, "built with CUDA runtime %d.%d; no CUDA driver found",
                 runtime / 1000, runtime % 1000 / 10);
    else
        snprintf(text, n, "built with CUDA runtime %d.%d; driver supports CUDA %d.%d",
                 runtime / 1000, runtime % 1000 / 10, driver / 1000, driver % 1000 / 10);
}

int p2p_device_name(int device, char *name, size_t n)
{
    struct cudaDeviceProp prop;
    const int known = cudaGetDeviceProperties(&prop, device) == cudaSuccess;
    snprintf(name, n, "%s", known ? prop.name : "");
    return known ? 0 : -1;
}

/* Device ids of the tiles, from --devices (config_validate checked there is one a
 * tile) or 0, 1, ...; checks they exist. */
static int choose_devices(int partition_x, int partition_y, const int *asked,
                          int asked_count, int count, int *devices, char *err, size_t n)
{
    int tiles = partition_x * partition_y;
    if (asked_count == 0 && tiles > count)
        return error_status(EXIT_BAD_USAGE, err, n,
                            "--partition %dx%d needs %d GPUs; this machine has %d",
                            partition_x, partition_y, tiles, count);
    for (int t = 0; t < tiles; t++) {
        devices[t] = asked_count > 0 ? asked[t] : t;
        if (devices[t] >= count)
            return error_status(
                EXIT_BAD_USAGE, err, n,
                "--devices: there is no GPU %d (this machine has %d: 0 to %d)",
                devices[t], count, count - 1);
    }
    return EXIT_OK;
}

/* The GPUs a run used, reset at exit (reset_used_devices). */
static int used_devices[P2P_MAX_DEVICES], used_count;

/* Destroys the contexts of the GPUs used, at exit: whatever the run left
 * allocated is then reported by compute-sanitizer's leak check, which is how
 * tests/gpu_sanitize.sh shows that every path, failures included, frees it. */
static void reset_used_devices(void)
{
    for (int i = 0; i < used_count; i++)
        if (cudaSetDevice(used_devices[i]) == cudaSuccess)
            cudaDeviceReset();
}

static void reset_at_exit(const int *devices, int tiles)
{
    if (used_count == 0)
        atexit(reset_used_devices);
    for (int t = 0; t < tiles; t++) {
        int known = 0;
        for (int i = 0; i < used_count; i++)
            known |= used_devices[i] == devices[t];
        if (!known && used_count < P2P_MAX_DEVICES)
            used_devices[used_count++] = devices[t];
    }
}

int p2p_plan_devices(int partition_x, int partition_y, const int *asked, int asked_count,
                     int *devices, char *list, size_t list_n, char *names, size_t names_n,
                     char *err, size_t n)
{
    int count = p2p_device_count(), tiles = partition_x * partition_y;
    char why[128];
    if (count == 0) {
        p2p_none_reason(why, sizeof why);
        return error_status(EXIT_FAILURE_RUN, err, n, "%s; use --backend cpu", why);
    }
    int rc = choose_devices(partition_x, partition_y, asked, asked_count, count, devices,
                            err, n);
    if (rc != EXIT_OK)
        return rc;
    size_t used = 0;
    list[0] = '\0';
    for (int t = 0; t < tiles && used < list_n; t++)
        used +=
            (size_t)snprintf(list + used, list_n - used, t ? ",%d" : "%d", devices[t]);
    if (p2p_device_name(devices[0], names, names_n) != 0)
        return error_status(EXIT_FAILURE_RUN, err, n,
                            "cannot read the properties of GPU %d", devices[0]);
    reset_at_exit(devices, tiles);
    return EXIT_OK;
}

/* The pairs (device, peer) this process has enabled, so that a GPU holding two tiles
 * beside the same peer enables it once: CUDA refuses the second with
 * cudaErrorPeerAccessAlreadyEnabled, which compute-sanitizer reports as an error.
 * Devices are reset only at exit (reset_used_devices), so an enabled pair stays so. */
#define P2P_TABLE_DEVICES 64
static unsigned char peer_enabled[P2P_TABLE_DEVICES][P2P_TABLE_DEVICES];

/* cudaDeviceEnablePeerAccess(peer) on the calling thread's device, once a pair. */
static cudaError_t enable_once(int device, int peer)
{
    const int listed = device >= 0 && peer >= 0 && device < P2P_TABLE_DEVICES &&
                       peer < P2P_TABLE_DEVICES;
    cudaError_t rc = cudaSuccess;
#pragma omp critical(p2p_peer_table)
    {
        if (!listed || !peer_enabled[device][peer])
            rc = cudaDeviceEnablePeerAccess(peer, 0);
        if (listed && (rc == cudaSuccess || rc == cudaErrorPeerAccessAlreadyEnabled))
            peer_enabled[device][peer] = 1;
    }
    return rc;
}

int p2p_enable(int device, int peer, char *err, size_t n)
{
    int can = 0;
    cudaError_t rc = cudaDeviceCanAccessPeer(&can, device, peer);
    if (rc != cudaSuccess)
        return error_set(err, n, "cudaDeviceCanAccessPeer(%d, %d): %s", device, peer,
                         cudaGetErrorString(rc));
    if (!can)
        return 0;
    rc = enable_once(device, peer);
    if (rc == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError(); /* clear the sticky-free error: not a failure */
        return 1;
    }
    if (rc != cudaSuccess)
        return error_set(err, n, "cudaDeviceEnablePeerAccess(%d) on device %d: %s", peer,
                         device, cudaGetErrorString(rc));
    return 1;
}

static int print_devices(FILE *out, int count, char *err, size_t n)
{
    for (int d = 0; d < count; d++) {
        struct cudaDeviceProp p;
        cudaError_t rc = cudaGetDeviceProperties(&p, d);
        if (rc != cudaSuccess)
            return error_set(err, n, "cudaGetDeviceProperties(%d): %s", d,
                             cudaGetErrorString(rc));
        fprintf(out,
                "  GPU %d: %s, %.1f GiB, %d SMs, compute capability %d.%d, PCI "
                "%04x:%02x:%02x\n",
                d, p.name, (double)p.totalGlobalMem / (1 << 30), p.multiProcessorCount,
                p.major, p.minor, p.pciDomainID, p.pciBusID, p.pciDeviceID);
    }
    return 0;
}

/* One matrix cell: "yes/r0" = can access the peer, performance rank 0. */
static void print_pair(FILE *out, int a, int b)
{
    int can = 0, rank = -1;
    if (a == b) {
        fprintf(out, " %8s", "-");
        return;
    }
    if (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess)
        can = -1;
    if (cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b) !=
        cudaSuccess)
        rank = -1;
    cudaGetLastError();
    if (can == 1)
        fprintf(out, " %5s/r%d", "yes", rank);
    else
        fprintf(out, " %8s", can == 0 ? "no" : "error");
}

int p2p_print_topology(FILE *out, char *err, size_t n)
{
    int count = p2p_device_count();
    char version[128];
    p2p_runtime_version(version, sizeof version);
    fprintf(out, "laplace topology (%s): %d CUDA device%s\n", version, count,
            count == 1 ? "" : "s");
    if (print_devices(out, count, err, n) != 0)
        return -1;
    if (count < 2)
        return 0;
    fprintf(out,
            "Peer access (row can read column; /rN: the driver's performance rank of "
            "the link, 0 = best):\n       ");
    for (int b = 0; b < count; b++)
        fprintf(out, " %8s", "GPU");
    fprintf(out, "\n       ");
    for (int b = 0; b < count; b++)
        fprintf(out, " %8d", b);
    fprintf(out, "\n");
    for (int a = 0; a < count; a++) {
        fprintf(out, "  GPU %d", a);
        for (int b = 0; b < count; b++)
            print_pair(out, a, b);
        fprintf(out, "\n");
    }
    return 0;
}

#else /* built without CUDA */

int p2p_device_count(void)
{
    return 0;
}

void p2p_runtime_version(char *text, size_t n)
{
    snprintf(text, n, "built without CUDA: CPU backends only");
}

void p2p_none_reason(char *text, size_t n)
{
    snprintf(text, n, "this laplace was built without CUDA");
}

int p2p_plan_devices(int partition_x, int partition_y, const int *asked, int asked_count,
                     int *devices, char *list, size_t list_n, char *names, size_t names_n,
                     char *err, size_t n)
{
    (void)partition_x, (void)partition_y, (void)asked, (void)asked_count;
    (void)devices, (void)list, (void)list_n, (void)names, (void)names_n;
    snprintf(err, n, "this laplace was built without CUDA; use --backend cpu or serial");
    return EXIT_FAILURE_RUN;
}

int p2p_device_name(int device, char *name, size_t n)
{
    (void)device;
    snprintf(name, n, "%s", "");
    return -1;
}

int p2p_print_topology(FILE *out, char *err, size_t n)
{
    (void)out;
    snprintf(err, n, "--topology: this laplace was built without CUDA");
    return -1;
}

int p2p_enable(int device, int peer, char *err, size_t n)
{
    (void)device, (void)peer;
    snprintf(err, n, "built without CUDA");
    return -1;
}

#endif
