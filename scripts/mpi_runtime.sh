#!/usr/bin/env bash
# mpi_runtime.sh - builds build/mpi-runtime/: Debian 12's Open MPI 4.1 run time (mpirun,
# libmpi, PMIx, hwloc, libevent, the MCA plugins and help texts), relocatable, so that a
# machine with no Open MPI and no package manager can run the ./laplace built here:
#     . build/mpi-runtime/env.sh      (from the repository root, or from anywhere in bash)
#     mpirun --allow-run-as-root --oversubscribe -np 2 ./laplace ... --partition 2x1 ...
# Run it here (Debian 12, amd64, apt-get able to download); it fetches the packages with
# apt-get download into a temporary folder, unpacks them with dpkg -x and keeps what a
# single-node run over shared memory needs (btl self/vader/tcp, pml ob1, the ORTE
# run time, PMIx, hwloc): about 11 MiB. Re-running rebuilds the folder from scratch.
#   --full   keep every plugin and the fabric libraries they need (UCX, libfabric,
#            verbs, PSM, PSM2, OpenSHMEM, Fortran/Java/C++ bindings): about 21 MiB.
# MPI_RUNTIME_DIR=path builds there instead of build/mpi-runtime.
# The bundle uses the libc, libm, libstdc++ and libgcc_s of the machine it runs on; its
# libraries need glibc >= 2.36 (libevent calls arc4random; the script prints the newest
# GLIBC_ version the bundle uses), so Ubuntu 22.04 (2.35) is too old, 24.04 is fine.
# On a machine without ssh, env.sh selects Open MPI's single-node launcher (plm isolated).
set -euo pipefail

die() { echo "mpi_runtime: $*" >&2; exit 1; }

full=0
case "${1:-}" in
    "") ;;
    --full) full=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (usage: scripts/mpi_runtime.sh [--full])" ;;
esac

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=${MPI_RUNTIME_DIR:-$repo/build/mpi-runtime}
multiarch=x86_64-linux-gnu

for tool in apt-get apt-cache dpkg dpkg-deb dpkg-query objdump; do
    command -v "$tool" > /dev/null 2>&1 ||
        die "needs '$tool' (a Debian system with apt and binutils; objdump: apt-get install binutils)"
done
[ "$(dpkg --print-architecture)" = amd64 ] ||
    die "this machine is $(dpkg --print-architecture); the bundle is for amd64 ($multiarch)"

# The packages: the Open MPI run time and every library its programs, libraries and the
# kept plugins link (objdump -p NEEDED, checked again below once unpacked).
packages=(openmpi-bin libopenmpi3 openmpi-common libpmix2 libmunge2 libhwloc15
          libevent-core-2.1-7 libevent-pthreads-2.1-7 libudev1 zlib1g)
[ $full = 1 ] && packages+=(libfabric1 libucx0 libibverbs1 ibverbs-providers librdmacm1
                            libpsm2-2 libpsm-infinipath1 libnl-3-200 libnl-route-3-200
                            libnuma1 libuuid1 libatomic1)
# Libraries nearly every distribution has: the bundle holds them, but env.sh puts each on
# LD_LIBRARY_PATH only where the machine lacks it, so that the machine's (newer) copy
# keeps serving every other program started from that shell.
fallback_libs=(libudev.so.1 libz.so.1)
[ $full = 1 ] && fallback_libs+=(libuuid.so.1 libatomic.so.1)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpi-runtime.XXXXXX")
stage="$dest.tmp.$$"
cleanup() { rm -rf "$tmp" "$stage"; }
trap cleanup EXIT

# 1. Download: the version installed here when the archive still has it (the one laplace
#    was built and tested against), else the candidate version apt offers.
echo "mpi_runtime: downloading ${#packages[@]} packages"
manifest=()
for p in "${packages[@]}"; do
    v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
    got=""
    if [ -n "$v" ] && (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root \
                                     "$p=$v" > /dev/null 2>&1); then
        got=$v
    elif (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$p" \
                          > "$tmp/apt.log" 2>&1); then
        got=$(apt-cache policy "$p" | awk '/Candidate:/ {print $2}')
        [ -n "$v" ] && echo "mpi_runtime: note: $p $v (installed) is no longer in the archive; using $got"
    else
        cat "$tmp/apt.log" >&2
        die "apt-get download $p failed (no network, or run apt-get update first?)"
    fi
    manifest+=("$p $got")
done
debs=("$tmp"/*.deb)
[ ${#debs[@]} -eq ${#packages[@]} ] ||
    die "expected ${#packages[@]} .deb files in $tmp, found ${#debs[@]}"

# 2. Unpack everything into the stage, in Debian's own layout (usr/..., etc/openmpi):
#    env.sh relocates Open MPI (OPAL_PREFIX, OPAL_SYSCONFDIR) and PMIx (PMIX_PREFIX,
#    PMIX_LIBDIR, PMIX_DATADIR, ...) to wherever the folder lies.
rm -rf "$stage"
mkdir -p "$stage"
for d in "${debs[@]}"; do
    dpkg -x "$d" "$stage" || die "dpkg -x $d failed"
done
lib="$stage/usr/lib/$multiarch"
pkglib="$lib/openmpi/lib/openmpi3"
if [ ! -x "$stage/usr/bin/orterun" ] || [ ! -f "$lib/libmpi.so.40" ] || [ ! -d "$pkglib" ]; then
    die "the unpacked packages lack orterun, libmpi.so.40 or $pkglib: not Debian 12's Open MPI 4.1?"
fi

# zlib1g and libnl-3-200 still ship in /lib (not merged /usr): move them next to the rest.
if [ -d "$stage/lib/$multiarch" ]; then
    cp -a "$stage/lib/$multiarch/." "$lib/"
    rm -rf "${stage:?}/lib"
fi
# libpsm-infinipath1 installs in usr/lib/libpsm1 and links it by update-alternatives.
if [ -f "$stage/usr/lib/libpsm1/libpsm_infinipath.so.1.16" ]; then
    mv "$stage/usr/lib/libpsm1/libpsm_infinipath.so.1.16" "$lib/"
    ln -sf libpsm_infinipath.so.1.16 "$lib/libpsm_infinipath.so.1"
    rm -rf "$stage/usr/lib/libpsm1"
fi

# 3. Drop what no run needs: documentation, man pages, lintian overrides, headers,
#    pkg-config files, the compiler wrappers (mpicc & co.) and their data.
rm -rf "$stage/usr/share/doc" "$stage/usr/share/man" "$stage/usr/share/lintian" \
       "$lib/openmpi/include" "$lib/openmpi/lib/pkgconfig" "$lib/pkgconfig" \
       "$lib/pmix2/include" "$stage/etc/openmpi/openmpi-totalview.tcl"
rm -f "$stage/usr/share/openmpi/"*-wrapper-data.txt \
      "$lib/pmix2/share/pmix/pmixcc-wrapper-data.txt"
keep_bin=" orterun orted ompi_info orte-info orte-clean ompi-clean orte-server ompi-server
           mpirun.openmpi mpiexec.openmpi "
for f in "$stage/usr/bin/"*; do
    case "$keep_bin" in *" $(basename "$f") "*) ;; *) rm -f "$f" ;; esac
done
# Debian's mpirun and mpiexec are update-alternatives links made at install time.
ln -s orterun "$stage/usr/bin/mpirun"
ln -s orterun "$stage/usr/bin/mpiexec"

if [ $full = 0 ]; then
    # Plugins for networks (InfiniBand verbs, libfabric, UCX, PSM, PSM2, netlink) and for
    # OpenSHMEM, and the bindings laplace does not use. Each framework keeps at least one
    # component: btl self/vader/sm/tcp, pml ob1/cm (cm finds no mtl and steps aside), osc
    # sm/rdma/pt2pt/monitoring, reachable weighted. mtl, atomic, memheap, scoll, spml and
    # sshmem are frameworks of their own (mtl only pml cm opens; the others only liboshmem).
    rm -f "$pkglib"/mca_btl_openib.so "$pkglib"/mca_btl_ofi.so "$pkglib"/mca_mtl_*.so \
          "$pkglib"/mca_pml_ucx.so "$pkglib"/mca_osc_ucx.so "$pkglib"/mca_reachable_netlink.so \
          "$pkglib"/mca_atomic_*.so "$pkglib"/mca_memheap_*.so "$pkglib"/mca_scoll_*.so \
          "$pkglib"/mca_spml_*.so "$pkglib"/mca_sshmem_*.so
    rm -f "$lib"/libmca_common_ofi.so* "$lib"/libmca_common_ucx.so* \
          "$lib"/libmca_common_verbs.so* "$lib"/liboshmem.so* "$lib"/libmpi_java.so* \
          "$lib"/libmpi_mpifh*.so* "$lib"/libmpi_usempi*.so* "$lib"/libmpi_cxx.so* \
          "$lib"/libompitrace.so* "$stage/usr/share/openmpi/mca-btl-openib-device-params.ini"
fi

# Fallback copies of the common system libraries, one folder each (see env.sh).
for so in "${fallback_libs[@]}"; do
    [ -e "$lib/$so" ] || die "the packages lack $so"
    mkdir -p "$stage/fallback/$so"
    cp -L "$lib/$so" "$stage/fallback/$so/$so"
    rm -f "$lib/$so" "$lib/${so%.so.*}.so."*
done
# hwloc plugins: an empty folder, so that the hwloc here never loads a machine's own
# (/usr/lib/$multiarch/hwloc, another hwloc version); its built-in discovery is enough.
mkdir -p "$lib/hwloc"
# Links left dangling by the removals above.
find "$stage" -xtype l -delete

# 4. Every ELF file's NEEDED libraries: found in the bundle, or one of the libraries any
#    Linux machine with gcc has (glibc, libstdc++, libgcc_s).
base_libs=" libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libutil.so.1
            ld-linux-x86-64.so.2 libstdc++.so.6 libgcc_s.so.1 "
declare -A have=()
while IFS= read -r f; do have[$(basename "$f")]=1; done \
    < <(find "$stage" \( -type f -o -type l \) -name '*.so*')
missing=""
elves=()
while IFS= read -r f; do
    head -c 4 "$f" | grep -q 'ELF' || continue
    elves+=("$f")
    for n in $(objdump -p "$f" | awk '$1 == "NEEDED" {print $2}'); do
        case "$base_libs" in *" $n "*) continue ;; esac
        [ -n "${have[$n]:-}" ] || missing+="  ${f#"$stage"/} needs $n"$'\n'
    done
done < <(find "$stage" -type f \( -perm -u+x -o -name '*.so*' \))
[ -z "$missing" ] || die "libraries missing from the bundle:"$'\n'"$missing"

glibc_max=$(for f in "${elves[@]}"; do objdump -T "$f"; done 2> /dev/null |
            grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -1)

# 5. env.sh and the manifest.
cat > "$stage/env.sh" << 'EOF'
# env.sh - the environment for the Open MPI run time in this folder (made by
# scripts/mpi_runtime.sh). Source it from the repository root:
#     . build/mpi-runtime/env.sh
# (in bash it may be sourced from anywhere: it finds its own folder). Sets PATH,
# LD_LIBRARY_PATH, OPAL_PREFIX, OPAL_SYSCONFDIR, PMIX_PREFIX (and PMIx's other folders)
# and HWLOC_PLUGINS_PATH, and OMPI_MCA_plm=isolated on a machine without ssh; sourcing it
# twice adds nothing twice.
if [ -n "${BASH_SOURCE:-}" ]; then
    _mpirt=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
else
    _mpirt="$PWD/build/mpi-runtime"
fi
if [ ! -x "$_mpirt/usr/bin/orterun" ]; then
    echo "env.sh: no Open MPI run time in $_mpirt (source it from the repository root," \
         "after scripts/mpi_runtime.sh)" >&2
    unset _mpirt
    return 1 2> /dev/null || exit 1
fi
_mpirt_lib="$_mpirt/usr/lib/x86_64-linux-gnu"

# Open MPI: every install folder follows OPAL_PREFIX except sysconfdir (/etc/openmpi).
export OPAL_PREFIX="$_mpirt/usr"
export OPAL_SYSCONFDIR="$_mpirt/etc/openmpi"
# PMIx, in usr/lib/x86_64-linux-gnu/pmix2: Debian built it with an absolute libdir and
# datadir (its sysconfdir is that share folder too), so each is set, not just the prefix;
# they give its plugins (lib/pmix), help texts (share/pmix) and pmix-mca-params.conf.
# PMIx 4.2 reads PMIX_PREFIX; PMIX_INSTALL_PREFIX is the older name, which Open MPI's
# pmix component also looks at.
export PMIX_PREFIX="$_mpirt_lib/pmix2"
export PMIX_INSTALL_PREFIX="$PMIX_PREFIX"
export PMIX_EXEC_PREFIX="$PMIX_PREFIX"
export PMIX_LIBDIR="$PMIX_PREFIX/lib"
export PMIX_DATAROOTDIR="$PMIX_PREFIX/share"
export PMIX_DATADIR="$PMIX_PREFIX/share"
export PMIX_SYSCONFDIR="$PMIX_PREFIX/share"
# ... but its plugin search path keeps the folder it was built with as well (a warning
# when that folder is absent): name the plugin folder outright.
export PMIX_MCA_mca_base_component_path="$PMIX_PREFIX/lib/pmix"
# hwloc: no plugins (an empty folder), never the machine's own.
export HWLOC_PLUGINS_PATH="$_mpirt_lib/hwloc"

# mpirun's default launcher (plm rsh) stops the run when it finds neither ssh nor rsh,
# even for a single node: use the single-node launcher then, unless one was chosen.
if [ -z "${OMPI_MCA_plm:-}${OMPI_MCA_plm_rsh_agent:-}" ] &&
   ! command -v ssh > /dev/null 2>&1 && ! command -v rsh > /dev/null 2>&1; then
    export OMPI_MCA_plm=isolated
fi

case ":${PATH:-}:" in
    *":$_mpirt/usr/bin:"*) ;;
    *) export PATH="$_mpirt/usr/bin${PATH:+:$PATH}" ;;
esac
case ":${LD_LIBRARY_PATH:-}:" in
    *":$_mpirt_lib:"*) ;;
    *) export LD_LIBRARY_PATH="$_mpirt_lib:$_mpirt_lib/pmix2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
esac
# Common libraries (libudev, zlib, ...): the machine's own when it has them, else ours.
for _mpirt_so in "$_mpirt"/fallback/*; do
    [ -d "$_mpirt_so" ] || continue
    _mpirt_name=${_mpirt_so##*/}
    _mpirt_found=0
    for _mpirt_d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64; do
        [ -e "$_mpirt_d/$_mpirt_name" ] && _mpirt_found=1 && break
    done
    if [ $_mpirt_found = 0 ] &&
       { ldconfig -p 2> /dev/null || /sbin/ldconfig -p 2> /dev/null; } |
           grep -q "^[[:space:]]*$_mpirt_name "; then
        _mpirt_found=1
    fi
    if [ $_mpirt_found = 0 ]; then
        case ":$LD_LIBRARY_PATH:" in
            *":$_mpirt_so:"*) ;;
            *) export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$_mpirt_so" ;;
        esac
    fi
done
unset _mpirt _mpirt_lib _mpirt_so _mpirt_name _mpirt_found _mpirt_d
EOF

{
    echo "# Open MPI run time built by scripts/mpi_runtime.sh$([ $full = 1 ] && echo ' --full')" \
         "on $(date -u +%Y-%m-%dT%H:%MZ) from Debian $(cat /etc/debian_version 2>/dev/null || echo '?')"
    echo "# newest glibc symbol version needed: $glibc_max"
    printf '%s\n' "${manifest[@]}"
} > "$stage/MANIFEST"

# 6. A smoke test here: ompi_info through env.sh loads every plugin, so a plugin whose
#    library is missing shows up; and the install folders must point into the bundle.
info=$(cd "$repo" && env -u LD_LIBRARY_PATH bash -c \
           ". '$stage/env.sh' && ompi_info --path all && ompi_info" 2>&1) ||
    die "ompi_info failed with the new bundle:"$'\n'"$info"
if grep -qiE 'unable to open|cannot open shared object|component_repository' <<< "$info"; then
    die "ompi_info could not load some plugins:"$'\n'"$(grep -iE 'unable|cannot' <<< "$info")"
fi
grep -q "Pkgdatadir: $stage/usr/share/openmpi" <<< "$info" ||
    die "OPAL_PREFIX did not relocate Open MPI:"$'\n'"$(grep -i dir: <<< "$info")"

rm -rf "$dest"
mv "$stage" "$dest"
# env.sh in the stage pointed to the stage; it finds its folder at source time, so the
# moved copy is correct as it is.
echo "mpi_runtime: $dest ($(du -sh "$dest" | cut -f1), $([ $full = 1 ] && echo full || echo lean);" \
     "needs glibc >= ${glibc_max#GLIBC_} on the target)"
printf '  %s\n' "${manifest[@]}"
