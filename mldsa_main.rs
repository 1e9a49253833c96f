// SPDX-License-Identifier: GPL-2.0

//! ML-DSA (FIPS 204) signature verification for the kernel crypto API.
//!
//! This file is the crate root and the kernel binding: the SHAKE seam over the kernel's
//! SHAKE library, the arch seam over the AVX2 routines of `arch/x86/` and the vector NTT of
//! `arch/s390/`, the registration of the algorithms `mldsa44`, `mldsa65` and `mldsa87`, and
//! the module, which runs the known-answer self-tests (`selftest.rs`) before it registers
//! anything. The algorithm itself (`params`, `ntt`, `keccak`, `mldsa_verify`) is plain Rust,
//! built and tested on the host as well (tools/host).
//!
//! The same source builds on Linux 6.12 and on 7.x; the Makefile tells rustc which
//! (`--cfg linux_6_12`). What differs is in one file per crypto API: `akcipher.rs` (6.12,
//! where the akcipher interface still verifies) and `sig.rs` (`struct sig_alg`, 6.13 and
//! later), plus the few names below that the kernel crate changed.

use core::ffi::{c_int, c_uint, c_void};
use kernel::prelude::*;
use kernel::{bindings, error::to_result, types::Opaque};
use mldsa_verify::{PublicKey, Workspace};
use params::{Params, ML_DSA_44, ML_DSA_65, ML_DSA_87};

// Items the kernel crate moved after 6.12 (to the `pin-init` crate), and renamed.
#[cfg(linux_6_12)]
use kernel::init::{pin_init_from_closure, zeroed as init_zeroed, Zeroable};
#[cfg(not(linux_6_12))]
use pin_init::{init_zeroed, pin_init_from_closure};

// The core's items are public API for the host harness (tools/host), where the same files
// are built; here they are private modules and the binding does not use every item.
#[allow(dead_code, unreachable_pub)]
mod keccak;
#[allow(dead_code, unreachable_pub)]
mod mldsa_verify;
#[allow(dead_code, unreachable_pub)]
mod ntt;
#[allow(dead_code, unreachable_pub)]
mod params;

/// The crypto API binding: akcipher on Linux 6.12, `sig_alg` from 6.13 on.
#[cfg(linux_6_12)]
#[path = "akcipher.rs"]
mod binding;
#[cfg(not(linux_6_12))]
#[path = "sig.rs"]
mod binding;

mod mldsa_api;
mod selftest;

#[cfg(CONFIG_CRYPTO_MLDSA_KUNIT_TEST)]
mod kunit_tests;

/// The `module!` of this module; `module!` took `authors` in place of `author` after 6.12.
macro_rules! mldsa_module {
    ($($authors:tt)*) => {
        module! {
            type: MlDsaModule,
            name: "mldsa_rust",
            $($authors)*,
            description: "ML-DSA (FIPS 204) signature verification",
            license: "GPL",
            // MODULE_ALIAS_CRYPTO() for each algorithm and driver name.
            alias: [
                "crypto-mldsa44", "mldsa44", "crypto-mldsa44-rust", "mldsa44-rust",
                "crypto-mldsa65", "mldsa65", "crypto-mldsa65-rust", "mldsa65-rust",
                "crypto-mldsa87", "mldsa87", "crypto-mldsa87-rust", "mldsa87-rust",
            ],
        }
    };
}
#[cfg(linux_6_12)]
mldsa_module!(author: "ML-DSA kernel module authors");
#[cfg(not(linux_6_12))]
mldsa_module!(authors: ["ML-DSA kernel module authors"]);

/// The core's SHAKE seam (`crate::shake::Shake`), over the kernel's SHAKE library.
#[allow(unreachable_pub)]
mod shake {
    use kernel::bindings;

    /// A SHAKE context: the kernel's `struct shake_ctx`.
    pub struct Shake(bindings::shake_ctx);

    impl Shake {
        /// An all-zero context; `init256` starts it.
        pub const fn new() -> Self {
            // SAFETY: `shake_ctx` is made of integers only, so all-zero bytes are valid.
            Self(unsafe { core::mem::zeroed() })
        }

        /// Starts SHAKE256.
        pub fn init256(&mut self) {
            // SAFETY: `self.0` is a `shake_ctx` we have exclusive access to.
            unsafe { bindings::shake256_init(&mut self.0) }
        }

        /// Absorbs `data`.
        pub fn update(&mut self, data: &[u8]) {
            // SAFETY: `self.0` is ours; `data` is valid for reads of `data.len()` bytes.
            unsafe { bindings::shake_update(&mut self.0, data.as_ptr(), data.len()) }
        }

        /// Squeezes `out.len()` bytes into `out`.
        pub fn squeeze(&mut self, out: &mut [u8]) {
            // SAFETY: `self.0` is ours; `out` is valid for writes of `out.len()` bytes.
            unsafe { bindings::shake_squeeze(&mut self.0, out.as_mut_ptr(), out.len()) }
        }
    }
}

/// The core's arch seam (`crate::arch`): the AVX2 routines of `arch/x86/` where the CPU has
/// AVX2 and the FPU is usable in the calling context, the portable code otherwise. Each
/// call is its own short FPU section (one NTT or one 4-way permutation), so preemption is
/// never held off for long.
#[allow(unreachable_pub)]
mod arch {
    use crate::keccak::{keccak_f1600, StateX4};
    use crate::mldsa_verify::PackedPoly;
    use crate::ntt::{self, Poly};
    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    use crate::params::Q;

    #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
    pub(crate) mod avx2 {
        use core::sync::atomic::{AtomicBool, Ordering::Relaxed};
        use kernel::bindings;

        extern "C" {
            pub(crate) fn mldsa_ntt_avx2(a: *mut i32);
            pub(crate) fn mldsa_invntt_avx2(a: *mut i32);
            pub(crate) fn mldsa_pointwise_avx2(c: *mut i32, a: *const u8, b: *const u8);
            pub(crate) fn mldsa_pack_avx2(out: *mut u8, a: *const i32);
            pub(crate) fn mldsa_w1_encode_avx2(out: *mut u8, w: *const i32, gamma2: i32);
            pub(crate) fn mldsa_keccak_x4_avx2(st: *mut u8);
            pub(crate) fn mldsa_keccak_x4_avx512(st: *mut u8);
            pub(crate) fn mldsa_keccak_avx2(st: *mut u8);
            pub(crate) fn mldsa_rej_ntt_mul_acc_avx2(
                w: *mut i32,
                zhat: *const u8,
                lane0: *const u8,
                m: *mut usize,
            ) -> usize;
        }

        /// Whether the CPU has AVX2 and the kernel manages its registers; set by [`init`].
        static USABLE: AtomicBool = AtomicBool::new(false);
        /// Whether it also has AVX-512VL, for the faster 4-way Keccak; set by [`init`].
        static AVX512: AtomicBool = AtomicBool::new(false);

        /// Whether the boot CPU has each of `features` and the kernel manages the registers
        /// of each of `xfeatures`.
        fn has(features: &[u32], xfeatures: u64) -> bool {
            // SAFETY: These only read the boot CPU's feature bits and the xstate mask; a
            // null feature name pointer is allowed.
            unsafe {
                features.iter().all(|&f| bindings::boot_cpu_has(f as u16))
                    && bindings::cpu_has_xfeatures(xfeatures, core::ptr::null_mut()) != 0
            }
        }

        /// Finds out whether the CPU has AVX2, and AVX-512VL, as the x86 crypto glue does.
        pub(crate) fn init() {
            let ymm = bindings::XFEATURE_MASK_SSE | bindings::XFEATURE_MASK_YMM;
            let avx2 = has(
                &[bindings::X86_FEATURE_AVX, bindings::X86_FEATURE_AVX2],
                ymm,
            );
            let avx512 = has(
                &[
                    bindings::X86_FEATURE_AVX512F,
                    bindings::X86_FEATURE_AVX512VL,
                ],
                ymm | bindings::XFEATURE_MASK_AVX512,
            );
            USABLE.store(avx2, Relaxed);
            AVX512.store(avx2 && avx512, Relaxed);
        }

        /// Whether the AVX2 routines run (where the FPU is usable).
        pub(crate) fn usable() -> bool {
            USABLE.load(Relaxed)
        }

        /// Whether the AVX-512VL 4-way Keccak runs in place of the AVX2 ones.
        pub(crate) fn avx512() -> bool {
            AVX512.load(Relaxed)
        }

        /// Runs `f` in a kernel FPU section and returns true, if the CPU has AVX2 and the
        /// FPU is usable here; otherwise returns false. `f` may call the AVX2 routines.
        pub(crate) fn run(f: impl FnOnce()) -> bool {
            // SAFETY: `irq_fpu_usable()` may be called from any context.
            if !usable() || !unsafe { bindings::irq_fpu_usable() } {
                return false;
            }
            // SAFETY: The FPU is usable in this context (checked above), and the section
            // is ended below, in the same context; `f` does not sleep.
            unsafe { bindings::kernel_fpu_begin() };
            f();
            // SAFETY: Ends the section begun above.
            unsafe { bindings::kernel_fpu_end() };
            true
        }
    }

    /// The s390 vector-facility NTT of `arch/s390/`; `ntt_vx_glue.c` runs each call in its
    /// own `kernel_fpu_begin()`/`kernel_fpu_end()` section.
    #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
    pub(crate) mod vx {
        use core::sync::atomic::{AtomicBool, Ordering::Relaxed};

        extern "C" {
            fn mldsa_vx_available() -> bool;
            pub(crate) fn mldsa_ntt_vx_fpu(a: *mut i32);
            pub(crate) fn mldsa_invntt_vx_fpu(a: *mut i32);
        }

        /// Whether the machine has the vector facility; set by [`init`].
        static USABLE: AtomicBool = AtomicBool::new(false);

        pub(crate) fn init() {
            // SAFETY: Only reads the machine's facility bits.
            USABLE.store(unsafe { mldsa_vx_available() }, Relaxed);
        }

        /// Whether the vector routines run.
        pub(crate) fn usable() -> bool {
            USABLE.load(Relaxed)
        }
    }

    /// Finds out whether the arch routines can run.
    pub fn init() {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        avx2::init();
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        vx::init();
    }

    /// The routines in use where the FPU is usable: "AVX2", "AVX2 + AVX-512VL Keccak",
    /// "vector facility" or "portable".
    pub fn name() -> &'static str {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        if avx2::avx512() {
            return "AVX2 + AVX-512VL Keccak";
        }
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        if avx2::usable() {
            return "AVX2";
        }
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        if vx::usable() {
            return "vector facility";
        }
        "portable"
    }

    // In each function below, `run` calls the closure only on a CPU with AVX2, in an FPU
    // section, and the routine reads and writes only the arrays it is given (256
    // coefficients, or the 800-byte state), with no alignment requirement, under the same
    // bounds on the inputs as the portable function (see arch/x86/*.S). The s390 routines
    // (arch/s390/ntt_vx.S) likewise transform the 256 coefficients they are given, 4-byte
    // aligned as `Poly` is, in their own FPU section.

    pub fn ntt(a: &mut Poly) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above.
        if avx2::run(|| unsafe { avx2::mldsa_ntt_avx2(a.as_mut_ptr()) }) {
            return;
        }
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        if vx::usable() {
            // SAFETY: See above; the machine has the vector facility.
            unsafe { vx::mldsa_ntt_vx_fpu(a.as_mut_ptr()) };
            return;
        }
        ntt::ntt(a)
    }

    /// `ntt::invntt_tomont` of `a` for any a[i] < 2^31 - 2^22: each is first brought below
    /// q by `ntt::reduce32` (which the AVX2 routine does as it loads them).
    pub fn invntt_tomont(a: &mut Poly) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above; the routine takes a[i] < 2^31 - 2^22.
        if avx2::run(|| unsafe { avx2::mldsa_invntt_avx2(a.as_mut_ptr()) }) {
            return;
        }
        a.iter_mut().for_each(|c| *c = ntt::reduce32(*c));
        #[cfg(CONFIG_CRYPTO_MLDSA_S390_VX)]
        if vx::usable() {
            // SAFETY: See above; the machine has the vector facility.
            unsafe { vx::mldsa_invntt_vx_fpu(a.as_mut_ptr()) };
            return;
        }
        ntt::invntt_tomont(a)
    }

    /// c = a * b pointwise, from packed polynomials.
    pub fn pointwise(c: &mut Poly, a: &PackedPoly, b: &PackedPoly) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above; the routine reads a[..768] and b[..768].
        if avx2::run(|| unsafe {
            avx2::mldsa_pointwise_avx2(c.as_mut_ptr(), a.as_ptr(), b.as_ptr())
        }) {
            return;
        }
        crate::mldsa_verify::pointwise(c, a, b)
    }

    /// Packs `a`, each coefficient reduced to [0, q), into `out`.
    pub fn pack(a: &Poly, out: &mut PackedPoly) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above; the routine writes the 769 bytes of `out`.
        if avx2::run(|| unsafe { avx2::mldsa_pack_avx2(out.as_mut_ptr(), a.as_ptr()) }) {
            return;
        }
        crate::mldsa_verify::pack(a, out)
    }

    /// w1Encode of HighBits of `w` into `out`, 4-bit fields if gamma2 = (q - 1) / 32 and
    /// 6-bit ones otherwise.
    pub fn w1_encode(gamma2: i32, w: &Poly, out: &mut [u8]) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        {
            let out = &mut out[..32 * if gamma2 == (Q - 1) / 32 { 4 } else { 6 }];
            // SAFETY: See above; the routine writes 128 bytes (gamma2 = (q - 1) / 32) or
            // 192, the length of `out`.
            if avx2::run(|| unsafe {
                avx2::mldsa_w1_encode_avx2(out.as_mut_ptr(), w.as_ptr(), gamma2)
            }) {
                return;
            }
        }
        crate::mldsa_verify::w1_encode(gamma2, w, out)
    }

    /// Permutes states 0..`states`; the others are scratch, which the AVX-512VL routine
    /// permutes too: it is faster than the single-state one.
    pub fn keccak_f1600_x4(st: &mut StateX4, states: usize) {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        // SAFETY: See above; the AVX-512VL routine runs only on a CPU with AVX-512VL.
        if avx2::run(|| unsafe {
            if avx2::avx512() {
                avx2::mldsa_keccak_x4_avx512(st.as_mut_ptr().cast())
            } else if states == 1 {
                avx2::mldsa_keccak_avx2(st.as_mut_ptr().cast())
            } else {
                avx2::mldsa_keccak_x4_avx2(st.as_mut_ptr().cast())
            }
        }) {
            return;
        }
        for s in 0..states {
            keccak_f1600(st, s);
        }
    }

    /// Takes the first groups of one SHAKE128 block of state `t` as
    /// `mldsa_verify::rej_ntt_mul_acc` would, and returns how many it took: none without
    /// AVX2.
    pub fn rej_ntt_mul_acc(
        w: &mut Poly,
        zhat: &PackedPoly,
        st: &StateX4,
        t: usize,
        m: &mut usize,
    ) -> usize {
        #[cfg(CONFIG_CRYPTO_MLDSA_AVX2)]
        {
            // Lanes 0..20 of state t: what the routine may read.
            let lanes = &st.as_flattened()[8 * t..][..32 * 20 + 8];
            let mut taken = 0;
            // SAFETY: See above: the routine reads `lanes`, zhat[..768] and `*m`, and
            // writes only the 256 coefficients of `w` and `*m`.
            if avx2::run(|| unsafe {
                taken = avx2::mldsa_rej_ntt_mul_acc_avx2(
                    w.as_mut_ptr(),
                    zhat.as_ptr(),
                    lanes.as_ptr(),
                    m,
                )
            }) {
                return taken;
            }
        }
        #[cfg(not(CONFIG_CRYPTO_MLDSA_AVX2))]
        let _ = (w, zhat, st, t, m);
        0
    }
}

/// The largest signature, of ML-DSA-87.
const MAX_SIG_LEN: usize = ML_DSA_87.sig_len();

/// The algorithms' priority: above the 5000 of Linux 7.x's `crypto/mldsa.c` (drivers
/// `mldsaNN-lib`), so that `crypto_alloc_sig("mldsa65", 0, 0)` picks this module.
const PRIORITY: c_int = 5100;

/// The parameter set of the algorithm whose matrix A has `l` columns (4, 5 or 7).
const fn params_for(l: usize) -> &'static Params {
    match l {
        4 => &ML_DSA_44,
        5 => &ML_DSA_65,
        _ => &ML_DSA_87,
    }
}

/// A kernel error from a positive errno constant of `bindings`.
fn errno(e: u32) -> Error {
    Error::from_errno(-(e as c_int))
}

impl From<mldsa_verify::Error> for Error {
    fn from(e: mldsa_verify::Error) -> Self {
        match e {
            mldsa_verify::Error::BadMsg => errno(bindings::EBADMSG),
            mldsa_verify::Error::KeyRejected => errno(bindings::EKEYREJECTED),
            mldsa_verify::Error::Inval => EINVAL,
        }
    }
}

/// The C return code of `r`.
fn to_errno(r: Result) -> c_int {
    match r {
        Ok(()) => 0,
        Err(e) => e.to_errno(),
    }
}

// SAFETY: A `Workspace` is made of integers only (polynomials, buffers and the kernel's
// `shake_ctx`), so all-zero bytes are a valid value.
unsafe impl<const L: usize> Zeroable for Workspace<L> {}

// SAFETY: A `PublicKey` is made of byte arrays only.
unsafe impl<const K: usize> Zeroable for PublicKey<K> {}

/// Bytes of a crypto API context that holds a `T`: the context is only `CRYPTO_MINALIGN`
/// aligned, so room is left to align it (see [`aligned`]).
const fn padded_size<T>() -> c_uint {
    (size_of::<T>() + align_of::<T>() - 1) as c_uint
}

/// The first byte of `ctx` aligned for a `T`; with a context of [`padded_size::<T>()`] bytes, a
/// `T` fits there.
fn aligned<T>(ctx: *mut c_void) -> *mut T {
    let ctx = ctx.cast::<u8>();
    let align = align_of::<T>();
    ctx.wrapping_add((align - ctx as usize % align) % align)
        .cast()
}

/// The `crypto_alg` part of each algorithm: `name` (e.g. "mldsa65"), driver `name-rust`.
fn set_base(base: &mut bindings::crypto_alg, name: &str, ctxsize: c_uint, module: &ThisModule) {
    set_name(&mut base.cra_name, name.as_bytes());
    let mut driver = [0u8; 16];
    driver[..name.len()].copy_from_slice(name.as_bytes());
    driver[name.len()..name.len() + 5].copy_from_slice(b"-rust");
    set_name(&mut base.cra_driver_name, &driver[..name.len() + 5]);
    base.cra_priority = PRIORITY;
    base.cra_ctxsize = ctxsize;
    base.cra_module = module.as_ptr();
}

/// Copies `s`, NUL-terminated, into the C string field `dst`.
fn set_name(dst: &mut [kernel::ffi::c_char], s: &[u8]) {
    for (d, &c) in dst.iter_mut().zip(s) {
        *d = c as _;
    }
    dst[s.len()] = 0;
}

/// One registered algorithm, unregistered when dropped.
#[pin_data(PinnedDrop)]
struct Registration {
    #[pin]
    alg: Opaque<binding::Alg>,
}

impl Registration {
    fn new<const K: usize, const L: usize>(
        name: &'static str,
        module: &'static ThisModule,
    ) -> impl PinInit<Self, Error> {
        try_pin_init!(Self {
            // SAFETY: The closure fully initializes the slot, then registers it; the slot is
            // pinned, so it stays put until `drop` unregisters it. On failure nothing is
            // registered and the slot may be freed.
            alg <- unsafe {
                pin_init_from_closure(move |slot: *mut Opaque<binding::Alg>| {
                    // `Opaque<T>` is `repr(transparent)` over a `T`.
                    let alg = slot.cast::<binding::Alg>();
                    alg.write(binding::alg::<K, L>(name, module));
                    to_result(binding::register(alg))
                })
            },
        })
    }
}

// SAFETY: Once registered, the algorithm belongs to the crypto API, which synchronizes all
// access to it; `Registration` itself only unregisters it, from any thread.
unsafe impl Send for Registration {}
// SAFETY: `Registration` offers no access to the algorithm through a shared reference.
unsafe impl Sync for Registration {}

#[pinned_drop]
impl PinnedDrop for Registration {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: A `Registration` exists only once registering `alg` succeeded, and this is
        // the only place that unregisters it.
        unsafe { binding::unregister(self.alg.get()) };
    }
}

struct MlDsaModule {
    _algs: [Pin<KBox<Registration>>; 3],
}

impl kernel::Module for MlDsaModule {
    fn init(module: &'static ThisModule) -> Result<Self> {
        arch::init();
        selftest::run(&selftest::KATS)?;
        mldsa_api::enable();
        pr_info!(
            "self-tests passed for ML-DSA-44, ML-DSA-65 and ML-DSA-87 ({} code)\n",
            arch::name()
        );
        let algs = [
            KBox::pin_init(Registration::new::<4, 4>("mldsa44", module), GFP_KERNEL)?,
            KBox::pin_init(Registration::new::<6, 5>("mldsa65", module), GFP_KERNEL)?,
            KBox::pin_init(Registration::new::<8, 7>("mldsa87", module), GFP_KERNEL)?,
        ];
        pr_info!(
            "registered mldsa44, mldsa65, mldsa87 ({} algorithms, drivers mldsaNN-rust)\n",
            binding::KIND
        );
        Ok(MlDsaModule { _algs: algs })
    }
}
