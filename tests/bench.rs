// SPDX-License-Identifier: GPL-2.0

//! With `CONFIG_CRYPTO_MLDSA_BENCHMARK`: verifications per second, and the verifications whose
//! instructions the QEMU plugin `tools/insn-count/mldsa-insns.c` counts.

use super::*;

check_at!($ "tests/bench.rs", c"tests/bench.rs");

/// `benchmark_mldsaNN`: verifies per second through the crypto API, after a warm-up.
#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
pub(super) fn benchmark(name: &CStr, k: &Kat) {
    const WARMUP: u32 = 20;
    const ITERS: u32 = 200;
    let tfm = tfm_with_key!(name, k);
    for _ in 0..WARMUP {
        check!(tfm.verify(k.sig, k.msg) == 0);
    }
    // SAFETY: `ktime_get` may be called from any context.
    let t0 = unsafe { bindings::ktime_get() };
    for _ in 0..ITERS {
        check!(tfm.verify(k.sig, k.msg) == 0);
    }
    // SAFETY: `ktime_get` may be called from any context.
    let ns = (unsafe { bindings::ktime_get() } - t0).max(1) as u64;
    pr_info!(
        "{}: {} verifications/s, {} code ({} in {} us; under emulation such as QEMU TCG this is not hardware speed)\n",
        name.to_str().unwrap_or("?"),
        u64::from(ITERS) * 1_000_000_000 / ns,
        crate::simd::name(),
        ITERS,
        ns / 1000
    );
}

/// Starts an instruction-count interval labelled `L`: a no-op that the QEMU plugin
/// `tools/insn-count/mldsa-insns.c` recognises (`nopl 0x5344LLLL(%rax)`, `brcl 0,0x5344LLLL`).
#[cfg(CONFIG_CRYPTO_MLDSA_EXTENDED)]
#[inline(always)]
pub(super) fn insns_start<const L: u16>() {
    // SAFETY: A no-op that touches no memory, register or flag.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!(
            ".byte 0x0f, 0x1f, 0x80, {lo}, {hi}, 0x44, 0x53",
            lo = const L & 0xff,
            hi = const L >> 8,
            options(nomem, nostack, preserves_flags)
        )
    };
    // SAFETY: As above: a branch with an empty condition mask.
    #[cfg(target_arch = "s390x")]
    unsafe {
        core::arch::asm!(
            ".byte 0xc0, 0x04, 0x53, 0x44, {hi}, {lo}",
            lo = const L & 0xff,
            hi = const L >> 8,
            options(nomem, nostack, preserves_flags)
        )
    };
}

/// Ends an instruction-count interval (`nopl 0x53450000(%rax)`, `brcl 0,0x53450000`).
#[cfg(CONFIG_CRYPTO_MLDSA_EXTENDED)]
#[inline(always)]
pub(super) fn insns_stop() {
    // SAFETY: A no-op that touches no memory, register or flag.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        core::arch::asm!(
            ".byte 0x0f, 0x1f, 0x80, 0, 0, 0x45, 0x53",
            options(nomem, nostack, preserves_flags)
        )
    };
    // SAFETY: As above.
    #[cfg(target_arch = "s390x")]
    unsafe {
        core::arch::asm!(
            ".byte 0xc0, 0x04, 0x53, 0x45, 0, 0",
            options(nomem, nostack, preserves_flags)
        )
    };
}

/// Runs `f`, which must give 0, eight times, each between the markers of interval `L`.
#[cfg(CONFIG_CRYPTO_MLDSA_EXTENDED)]
pub(super) fn counted<const L: u16>(mut f: impl FnMut() -> c_int) {
    for _ in 0..8 {
        insns_start::<L>();
        let r = f();
        insns_stop();
        check!(r == 0);
    }
}

/// The verifications of set `NN` that `count_instructions` counts, labelled `NN << 4 | i`:
/// i = 0 the C `mldsa_verify()` where `lib/crypto/mldsa.c` provides it, 1 and 2 this
/// module one-shot (`mldsa_verify_noalloc()`, the key decoded each time) on the portable
/// code (with the SHA-3 library's permutation where it is arch code, as a CPU without the
/// SIMD routines runs it) and on all the arch code, 3 and 4 the same with a key decoded
/// once (`mldsa_verify_ctx()`).
#[cfg(CONFIG_CRYPTO_MLDSA_EXTENDED)]
macro_rules! count_set {
    ($nn:literal, $k:expr, $alg:expr) => {{
        use crate::simd::{at_level, Level};
        let (k, alg): (&Kat, _) = (&$k, $alg);
        let (sig, msg, pk) = (k.sig, k.msg, k.pk);
        let buf = KBox::<bindings::mldsa_verify_buf>::new_uninit(GFP_KERNEL);
        check!(buf.is_ok());
        let mut buf = buf.unwrap();
        #[cfg(CONFIG_CRYPTO_LIB_MLDSA_GENERIC)]
        counted::<{ $nn << 4 }>(|| lib_verify(alg, sig, msg, pk));
        let mut one_shot = || lib_verify_noalloc(&mut buf, alg, sig, msg, pk);
        at_level(Level::Library, || {
            counted::<{ $nn << 4 | 1 }>(&mut one_shot)
        });
        counted::<{ $nn << 4 | 2 }>(&mut one_shot);
        let key = KBox::<bindings::mldsa_pubkey>::new_uninit(GFP_KERNEL);
        check!(key.is_ok());
        let (mut key, buf) = (key.unwrap(), buf.as_mut_ptr());
        let key = key.as_mut_ptr();
        // SAFETY: `buf` is valid for writes; only the field's address is taken.
        let ws = unsafe { &raw mut (*buf).ws };
        // SAFETY: `key` and `ws` are ours, of the right types and alignment.
        let rc = unsafe { bindings::mldsa_pubkey_init(key, alg, pk.as_ptr(), pk.len(), ws) };
        check!(rc == 0);
        let prepared = || {
            // SAFETY: `key` holds a decoded key and `ws` is ours; the inputs are readable
            // for the lengths given.
            unsafe {
                bindings::mldsa_verify_ctx(
                    key,
                    sig.as_ptr(),
                    sig.len(),
                    msg.as_ptr(),
                    msg.len(),
                    core::ptr::null(),
                    0,
                    ws,
                )
            }
        };
        at_level(Level::Library, || counted::<{ $nn << 4 | 3 }>(prepared));
        counted::<{ $nn << 4 | 4 }>(prepared);
    }};
}

/// `count_instructions`: each verification of `count_set!` eight times between the markers
/// that the QEMU plugin `tools/insn-count/mldsa-insns.c` counts the instructions between
/// (`./tools/test` takes the least of each eight, free of interrupts). Without the plugin,
/// it only checks that each verifies.
#[cfg(CONFIG_CRYPTO_MLDSA_EXTENDED)]
pub(super) fn count_instructions() {
    count_set!(44, kat::ML_DSA_44, ALGS[0]);
    count_set!(65, kat::ML_DSA_65, ALGS[1]);
    count_set!(87, kat::ML_DSA_87, ALGS[2]);
}

#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
pub(super) fn benchmark_mldsa44() {
    benchmark(c"mldsa44", &kat::ML_DSA_44);
}

#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
pub(super) fn benchmark_mldsa65() {
    benchmark(c"mldsa65", &kat::ML_DSA_65);
}

#[cfg(CONFIG_CRYPTO_MLDSA_BENCHMARK)]
pub(super) fn benchmark_mldsa87() {
    benchmark(c"mldsa87", &kat::ML_DSA_87);
}
