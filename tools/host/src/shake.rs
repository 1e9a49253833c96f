//! The host side of the SHAKE seam: the same types as the kernel crate's
//! `kernel::crypto::sha3` (`Shake`, `Absorbing`, `Squeezing`), as a sponge over
//! Keccak-f\[1600\]. Its state is the 200-byte Keccak state, the rate and an offset, the
//! size of the kernel's `struct shake_ctx`, so workspace sizes match.
//!
//! The permutation is the one the kernel would use: where the thread uses the AVX2
//! routines (`crate::simd::avx2`), the BMI2 one that `tools/patches/7.3` adds to the
//! kernel's SHA-3 library (assembled from the patch by `build.rs`), which the library runs
//! where the CPU has BMI1 and BMI2 (every CPU with AVX2 does); else the `keccak` crate's,
//! like the kernel's generic C.

/// A SHAKE128 or SHAKE256 context, used as the kernel crate's `Shake` is: through the
/// [`Absorbing`] that `init128` or `init256` returns, then the [`Squeezing`] it turns into.
pub struct Shake {
    st: [u64; 25],
    rate: u8,
    /// The offset of the next byte absorbed or squeezed in the rate.
    pos: u8,
}

impl Default for Shake {
    fn default() -> Self {
        Self::new()
    }
}

impl Shake {
    /// An all-zero context, to be started by `init128` or `init256`.
    pub const fn new() -> Self {
        Self {
            st: [0; 25],
            rate: 168,
            pos: 0,
        }
    }

    fn init(&mut self, rate: u8) -> Absorbing<'_> {
        self.st = [0; 25];
        self.rate = rate;
        self.pos = 0;
        Absorbing(self)
    }

    /// Starts SHAKE128.
    pub fn init128(&mut self) -> Absorbing<'_> {
        self.init(168)
    }

    /// Starts SHAKE256.
    pub fn init256(&mut self) -> Absorbing<'_> {
        self.init(136)
    }
}

/// A started context that takes input.
pub struct Absorbing<'a>(&'a mut Shake);

impl<'a> Absorbing<'a> {
    /// Absorbs `data`.
    pub fn update(&mut self, mut data: &[u8]) {
        let h = &mut *self.0;
        let rate = h.rate as usize;
        while !data.is_empty() {
            let pos = h.pos as usize;
            let n = data.len().min(rate - pos);
            if (pos | n) % 8 == 0 {
                for (lane, b) in h.st[pos / 8..].iter_mut().zip(data[..n].chunks_exact(8)) {
                    *lane ^= u64::from_le_bytes(b.try_into().unwrap());
                }
            } else {
                for (i, &b) in data[..n].iter().enumerate() {
                    h.st[(pos + i) / 8] ^= (b as u64) << (8 * ((pos + i) % 8));
                }
            }
            data = &data[n..];
            if pos + n == rate {
                permute(&mut h.st);
                h.pos = 0;
            } else {
                h.pos = (pos + n) as u8;
            }
        }
    }

    /// Pads the input, squeezes the first `out.len()` bytes into `out`, and returns the
    /// context for the rest of the output.
    pub fn squeeze(self, out: &mut [u8]) -> Squeezing<'a> {
        let h = self.0;
        let (pos, rate) = (h.pos as usize, h.rate as usize);
        h.st[pos / 8] ^= 0x1f << (8 * (pos % 8));
        h.st[(rate - 1) / 8] ^= 0x80 << 56;
        h.pos = h.rate;
        let mut squeezing = Squeezing(h);
        squeezing.squeeze(out);
        squeezing
    }
}

/// A context that gives output, and takes no more input.
pub struct Squeezing<'a>(&'a mut Shake);

impl Squeezing<'_> {
    /// Squeezes `out.len()` more bytes.
    pub fn squeeze(&mut self, mut out: &mut [u8]) {
        let h = &mut *self.0;
        let rate = h.rate as usize;
        while !out.is_empty() {
            if h.pos as usize == rate {
                permute(&mut h.st);
                h.pos = 0;
            }
            let pos = h.pos as usize;
            let n = out.len().min(rate - pos);
            let (head, tail) = out.split_at_mut(n);
            if (pos | n) % 8 == 0 {
                for (b, lane) in head.chunks_exact_mut(8).zip(&h.st[pos / 8..]) {
                    b.copy_from_slice(&lane.to_le_bytes());
                }
            } else {
                for (i, b) in head.iter_mut().enumerate() {
                    *b = (h.st[(pos + i) / 8] >> (8 * ((pos + i) % 8))) as u8;
                }
            }
            h.pos = (pos + n) as u8;
            out = tail;
        }
    }
}

/// A Keccak-f\[1600\] state in FIPS 202's byte order, as the kernel crate's `KeccakState`:
/// lane x + 5y little-endian at bytes `8 * (x + 5 * y)..`.
#[repr(C, align(8))]
#[derive(Clone, PartialEq, Eq)]
pub struct KeccakState(pub [u8; 200]);

/// The SHA-3 library's Keccak-f\[1600\] on `state`, as the kernel crate's `keccak_f1600`: in
/// place, as the C permutes `struct sha3_state` (on a big-endian machine each lane's bytes
/// are reversed before and after, as Linux 6.12's wrapper does).
pub fn keccak_f1600(state: &mut KeccakState) {
    #[cfg(target_endian = "big")]
    state.0.chunks_exact_mut(8).for_each(|w| w.reverse());
    // SAFETY: `KeccakState` is 200 bytes aligned to 8, the layout of `[u64; 25]`, whose every
    // bit pattern is valid; the borrow of `state` covers the new reference's life.
    permute(unsafe { &mut *state.0.as_mut_ptr().cast::<[u64; 25]>() });
    #[cfg(target_endian = "big")]
    state.0.chunks_exact_mut(8).for_each(|w| w.reverse());
}

/// Keccak-f\[1600\], kept out of line as the kernel's `keccakf()` is (a separate C function),
/// so that the stack measured on the host is that of the kernel's call structure: the BMI2
/// one where the thread stands for a CPU with it (one with AVX2, or one whose library
/// permutation it uses, `crate::simd::library_keccak`, where this CPU has BMI2).
#[inline(never)]
fn permute(st: &mut [u64; 25]) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::avx2() || crate::simd::library_keccak() && bmi2_available() {
        return keccakf_bmi2(st);
    }
    keccak::f1600(st);
}

/// Whether this CPU has BMI1 and BMI2, which `keccakf_bmi2` needs.
#[cfg(target_arch = "x86_64")]
pub fn bmi2_available() -> bool {
    std::is_x86_feature_detected!("bmi1") && std::is_x86_feature_detected!("bmi2")
}

/// Keccak-f\[1600\] with the SHA-3 library's `sha3_keccakf_bmi2` (of `tools/patches/7.3`).
///
/// # Panics
///
/// If the machine lacks BMI1 or BMI2.
#[cfg(target_arch = "x86_64")]
pub fn keccakf_bmi2(st: &mut [u64; 25]) {
    extern "C" {
        fn sha3_keccakf_bmi2(st: *mut u64);
    }
    assert!(bmi2_available(), "this machine has no BMI1 and BMI2");
    // SAFETY: the CPU has BMI1 and BMI2, which the routine uses; it reads and writes the 25
    // lanes of `st` and its own stack, nothing else.
    unsafe { sha3_keccakf_bmi2(st.as_mut_ptr()) }
}
