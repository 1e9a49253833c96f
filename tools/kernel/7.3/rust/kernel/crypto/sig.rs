// SPDX-License-Identifier: GPL-2.0

//! Public key signature verification algorithms.
//!
//! An algorithm implements [`SigAlg`] and is registered with the crypto API by a
//! [`Registration`], after which `crypto_alloc_sig()` finds it by name. Callers reach it
//! through `crypto_sig_set_pubkey()` and `crypto_sig_verify()`, or from Rust through [`Sig`].
//!
//! C headers: [`include/crypto/sig.h`](srctree/include/crypto/sig.h) and
//! [`include/crypto/internal/sig.h`](srctree/include/crypto/internal/sig.h).

use crate::{
    alloc::KVBox,
    bindings,
    error::{from_err_ptr, from_result, to_result},
    ffi::{c_int, c_uint, c_void},
    new_spinlock,
    prelude::*,
    sync::{Arc, SpinLock, UniqueArc},
    types::Opaque,
};
use core::{marker::PhantomData, ptr::NonNull};
use pin_init::Zeroable;

/// Bytes a caller passes to [`SigAlg::verify`]: the signature, or the message.
///
/// # Examples
///
/// ```
/// use kernel::crypto::sig::Input;
///
/// let msg = Input::from_slice(b"a message");
/// let mut at = 0;
/// msg.for_each_piece(|piece| {
///     assert_eq!(piece, &b"a message"[at..at + piece.len()]);
///     at += piece.len();
/// })?;
/// assert_eq!(at, msg.len());
/// let mut copy = [0u8; 9];
/// msg.copy_to(&mut copy)?;
/// assert_eq!(&copy, b"a message");
/// assert_eq!(msg.copy_to(&mut [0u8; 4]), Err(EINVAL));
/// assert_eq!(msg.as_slice(), b"a message");
/// # Ok::<(), Error>(())
/// ```
pub struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    /// The bytes of `data`.
    pub fn from_slice(data: &'a [u8]) -> Self {
        Self(data)
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Calls `f` on consecutive pieces of the bytes, in order, which together are all of
    /// them. `f` must not sleep: the pieces may be atomic mappings.
    pub fn for_each_piece(&self, mut f: impl FnMut(&[u8])) -> Result {
        f(self.0);
        Ok(())
    }

    /// The bytes, which this kernel's `struct sig_alg` passes in one piece.
    pub fn as_slice(&self) -> &'a [u8] {
        self.0
    }

    /// Copies the bytes into `dst`, which must be exactly as long; fails with `EINVAL`
    /// otherwise.
    pub fn copy_to(&self, dst: &mut [u8]) -> Result {
        if dst.len() != self.0.len() {
            return Err(EINVAL);
        }
        dst.copy_from_slice(self.0);
        Ok(())
    }
}

/// A signature verification algorithm: the operations of a `struct sig_alg`.
///
/// Algorithms registered through this trait verify only: the crypto API's sign and
/// set_priv_key give `-EOPNOTSUPP`. A tfm holds a [`SigAlg::Key`], which `set_pub_key`
/// replaces, and each verification allocates a [`SigAlg::Scratch`] of its own, so that
/// verifications on one tfm run in parallel, none of them holding a lock while it runs.
/// Both operations allocate with `GFP_KERNEL`, so they may sleep.
pub trait SigAlg {
    /// The algorithm's name, which `crypto_alloc_sig()` looks up, e.g. `c"mldsa65"`.
    const NAME: &'static CStr;

    /// The name of this implementation, unique among all algorithms.
    const DRIVER_NAME: &'static CStr;

    /// The rank among implementations of [`SigAlg::NAME`]: the highest is used.
    const PRIORITY: i32;

    /// The size of a public key, as `crypto_sig_keysize()` gives it.
    const KEY_SIZE: u32;

    /// The size of the largest signature, in bytes.
    const MAX_SIZE: u32;

    /// The public key of a tfm, shared by the verifications that run on it.
    type Key: Zeroable + Send + Sync;

    /// The memory a verification works in: all-zero bytes when it starts. It is allocated
    /// with `kvmalloc()` for each verification, and cleared when it is freed.
    type Scratch: Zeroable;

    /// Sets `key`, all-zero bytes, from its encoding `pk`; on failure the tfm holds no key.
    fn set_pub_key(key: &mut Self::Key, pk: &[u8]) -> Result;

    /// Verifies `sig`, a signature of `msg`, under `key`.
    fn verify(
        key: &Self::Key,
        scratch: &mut Self::Scratch,
        sig: Input<'_>,
        msg: Input<'_>,
    ) -> Result;
}

/// Verifies `sig`, a signature of `msg`, under `key`, as a tfm of `T` does but without one:
/// in a [`SigAlg::Scratch`] that it allocates and frees cleared. For an algorithm's
/// self-tests, which run before it is registered.
pub fn verify_without_tfm<T: SigAlg>(key: &T::Key, sig: Input<'_>, msg: Input<'_>) -> Result {
    let mut scratch = KVBox::<T::Scratch>::init(pin_init::init_zeroed(), GFP_KERNEL)?;
    let verified = T::verify(key, &mut scratch, sig, msg);
    free_cleared(scratch);
    verified
}

/// Frees `scratch` as `kvfree_sensitive()` does: cleared first, so that what a verification
/// computed does not stay in freed memory (FIPS 204, Section 3.6.3, "Intermediate Values").
fn free_cleared<S>(scratch: KVBox<S>) {
    if size_of::<S>() == 0 {
        // Nothing was allocated.
        return;
    }
    let ptr = KVBox::into_raw(scratch);
    // SAFETY: `ptr` is the `kvmalloc()` memory of a `KVBox<S>` of nonzero size, which holds a
    // valid `S` and which `KVBox::into_raw()` has given up: the `S` is dropped once, then its
    // `size_of::<S>()` bytes are cleared and freed, and nothing uses them again.
    unsafe {
        core::ptr::drop_in_place(ptr);
        bindings::kvfree_sensitive(ptr.cast(), size_of::<S>());
    }
}

/// The context of a tfm of `T`: its key, if one is set. A verification takes a reference
/// to the key under the lock and verifies without it, so that `set_pub_key` can replace
/// the key meanwhile.
type TfmCtx<T> = SpinLock<Option<Arc<<T as SigAlg>::Key>>>;

/// Bytes to reserve for a `T` in a tfm context, which is only `CRYPTO_MINALIGN` aligned:
/// enough to align it (see [`aligned`]). Evaluated in a constant, a `T` whose size the
/// crypto API's `unsigned int` cannot hold fails the build.
const fn padded_size<T>() -> c_uint {
    let size = size_of::<T>() + align_of::<T>() - 1;
    assert!(size <= c_uint::MAX as usize);
    size as c_uint
}

/// The first byte of `ctx` aligned for a `T`.
fn aligned<T>(ctx: *mut c_void) -> *mut T {
    // `align_of` is a power of two: this is the distance to the next multiple of it.
    let pad = (ctx as usize).wrapping_neg() & (align_of::<T>() - 1);
    ctx.cast::<u8>().wrapping_add(pad).cast()
}

/// The `struct sig_alg` callbacks of `T`.
struct Adapter<T>(PhantomData<T>);

impl<T: SigAlg> Adapter<T> {
    /// The context of `tfm`.
    ///
    /// # Safety
    ///
    /// `tfm` must be a tfm of a [`Registration<T>`]'s algorithm between `init_tfm` and
    /// `exit_tfm`.
    unsafe fn ctx<'a>(tfm: *mut bindings::crypto_sig) -> &'a TfmCtx<T> {
        // SAFETY: `init_tfm` initialized a `TfmCtx<T>` at this address, which stays there
        // until `exit_tfm` drops it.
        unsafe { &*aligned::<TfmCtx<T>>(bindings::crypto_sig_ctx(tfm)) }
    }

    /// The `len` bytes at `ptr`, which may be null if `len` is 0.
    ///
    /// # Safety
    ///
    /// If `len` is not 0, `ptr` must be valid for reads of `len` bytes during `'a`.
    unsafe fn bytes<'a>(ptr: *const c_void, len: c_uint) -> &'a [u8] {
        if len == 0 {
            return &[];
        }
        // SAFETY: By the safety requirement.
        unsafe { core::slice::from_raw_parts(ptr.cast(), len as usize) }
    }

    /// # Safety
    ///
    /// `tfm` must be a new tfm of the algorithm of `T`, passed by the crypto API to
    /// `sig_alg::init`.
    unsafe extern "C" fn init_tfm(tfm: *mut bindings::crypto_sig) -> c_int {
        let init = new_spinlock!(None);
        // SAFETY: The crypto API passes a new tfm of the algorithm, whose context is
        // `padded_size::<TfmCtx<T>>()` bytes (`cra_ctxsize`), so the aligned slot holds a
        // `TfmCtx<T>`; the tfm does not move until it is freed, after `exit_tfm`.
        unsafe { pin_init::raw_init(aligned::<TfmCtx<T>>(bindings::crypto_sig_ctx(tfm)), init) };
        0
    }

    /// # Safety
    ///
    /// `tfm` must be a tfm that [`Self::init_tfm`] initialized, passed by the crypto API to
    /// `sig_alg::exit`.
    unsafe extern "C" fn exit_tfm(tfm: *mut bindings::crypto_sig) {
        // SAFETY: The crypto API passes a tfm that `init_tfm` initialized, for the last time.
        unsafe { core::ptr::drop_in_place(aligned::<TfmCtx<T>>(bindings::crypto_sig_ctx(tfm))) };
    }

    /// # Safety
    ///
    /// `tfm` must be a tfm that [`Self::init_tfm`] initialized, and `key` valid for reads of
    /// `keylen` bytes during the call, as the crypto API passes them to
    /// `sig_alg::set_pub_key`.
    unsafe extern "C" fn set_pub_key(
        tfm: *mut bindings::crypto_sig,
        key: *const c_void,
        keylen: c_uint,
    ) -> c_int {
        // SAFETY: The crypto API passes a tfm of the algorithm, and `keylen` bytes at `key`
        // that stay readable during the call.
        let (ctx, pk) = unsafe { (Self::ctx(tfm), Self::bytes(key, keylen)) };
        from_result(|| {
            let key = UniqueArc::<T::Key>::init(pin_init::init_zeroed(), GFP_KERNEL)
                .and_then(|mut key| T::set_pub_key(&mut key, pk).map(|()| Arc::from(key)));
            let (key, r) = match key {
                Ok(key) => (Some(key), Ok(0)),
                Err(e) => (None, Err(e)),
            };
            // The tfm holds the new key, or none if setting it failed; the old one is dropped
            // once the lock is released, or later by the verifications that still hold it.
            let _old = core::mem::replace(&mut *ctx.lock(), key);
            r
        })
    }

    /// # Safety
    ///
    /// `tfm` must be a tfm that [`Self::init_tfm`] initialized, `src` valid for reads of
    /// `slen` bytes and `digest` of `dlen` bytes during the call, as the crypto API passes
    /// them to `sig_alg::verify`.
    unsafe extern "C" fn verify(
        tfm: *mut bindings::crypto_sig,
        src: *const c_void,
        slen: c_uint,
        digest: *const c_void,
        dlen: c_uint,
    ) -> c_int {
        // SAFETY: The crypto API passes a tfm of the algorithm, and `slen` bytes at `src`
        // and `dlen` at `digest` that stay readable during the call.
        let (ctx, sig, msg) = unsafe {
            (
                Self::ctx(tfm),
                Self::bytes(src, slen),
                Self::bytes(digest, dlen),
            )
        };
        from_result(|| {
            let key = ctx.lock().clone().ok_or(EINVAL)?;
            verify_without_tfm::<T>(&key, Input(sig), Input(msg)).map(|()| 0)
        })
    }

    extern "C" fn sign(
        _tfm: *mut bindings::crypto_sig,
        _src: *const c_void,
        _slen: c_uint,
        _dst: *mut c_void,
        _dlen: c_uint,
    ) -> c_int {
        EOPNOTSUPP.to_errno()
    }

    extern "C" fn set_priv_key(
        _tfm: *mut bindings::crypto_sig,
        _key: *const c_void,
        _keylen: c_uint,
    ) -> c_int {
        EOPNOTSUPP.to_errno()
    }

    extern "C" fn key_size(_tfm: *mut bindings::crypto_sig) -> c_uint {
        T::KEY_SIZE
    }

    extern "C" fn max_size(_tfm: *mut bindings::crypto_sig) -> c_uint {
        T::MAX_SIZE
    }

    /// # Safety
    ///
    /// `alg` must be the `base` of a `struct sig_alg` that [`Registration::new`] allocated,
    /// passed by the crypto API to `cra_destroy` when it drops its last reference.
    unsafe extern "C" fn destroy(alg: *mut bindings::crypto_alg) {
        // SAFETY: By the safety requirement, `alg` is the `base` of a `struct sig_alg`, the
        // contents of the `Opaque` that `Registration::new` leaked from a `KBox`, and nothing
        // uses it any more.
        drop(unsafe {
            let alg = crate::container_of!(alg, bindings::sig_alg, base);
            KBox::from_raw(Opaque::cast_from(alg).cast_mut())
        });
    }

    /// The names of `T` fit `cra_name` and `cra_driver_name` with their NUL: a longer one
    /// fails the build, where the crypto API would truncate it.
    const NAMES_FIT: () = assert!(
        T::NAME.to_bytes().len() < bindings::CRYPTO_MAX_ALG_NAME as usize
            && T::DRIVER_NAME.to_bytes().len() < bindings::CRYPTO_MAX_ALG_NAME as usize
    );

    /// The `struct sig_alg` of `T`, owned by `module`.
    fn alg(module: &'static ThisModule) -> bindings::sig_alg {
        let mut alg: bindings::sig_alg = pin_init::zeroed();
        alg.init = Some(Self::init_tfm);
        alg.exit = Some(Self::exit_tfm);
        alg.set_pub_key = Some(Self::set_pub_key);
        alg.set_priv_key = Some(Self::set_priv_key);
        alg.verify = Some(Self::verify);
        alg.sign = Some(Self::sign);
        alg.key_size = Some(Self::key_size);
        alg.max_size = Some(Self::max_size);
        let () = Self::NAMES_FIT;
        let base = &mut alg.base;
        copy_name(&mut base.cra_name, T::NAME);
        copy_name(&mut base.cra_driver_name, T::DRIVER_NAME);
        base.cra_priority = T::PRIORITY;
        base.cra_ctxsize = const { padded_size::<TfmCtx<T>>() };
        base.cra_module = module.as_ptr();
        alg
    }
}

/// Copies `name` into the C string field `dst`, with its NUL, which [`Adapter::NAMES_FIT`]
/// makes sure of at build time for the names of a [`SigAlg`].
fn copy_name(dst: &mut [crate::ffi::c_char], name: &CStr) {
    for (d, &c) in dst.iter_mut().zip(name.to_bytes_with_nul()) {
        *d = crate::ffi::c_char::from_ne_bytes([c]);
    }
}

/// The registration of a [`SigAlg`] with the crypto API, undone on drop.
///
/// The crypto API may hold the algorithm after `crypto_unregister_sig()`: a tfm allocated
/// from it keeps a reference until it is freed, which the unregistration does not wait
/// for. So the `struct sig_alg` lives in memory of its own, which the crypto API frees
/// through `cra_destroy` when it drops its last reference.
///
/// The crypto API's `CRYPTO_ALG_DUP_FIRST` would make that copy at registration, but
/// `crypto_unregister_alg()` is then given the caller's original, which was never put on the
/// list of algorithms: until the unregistration finds the copy, the copy is the driver's to
/// make, as the crypto maintainers advise.
///
/// # Examples
///
/// A toy algorithm whose one valid signature, of any message, is the key itself, registered
/// and then reached by name through a tfm, as `crypto_alloc_sig()` callers reach it:
///
/// ```
/// use core::ffi::CStr;
/// use kernel::crypto::{
///     fips_enabled,
///     sig::{Input, Registration, Sig, SigAlg},
/// };
///
/// struct KeyIsSig;
///
/// impl SigAlg for KeyIsSig {
///     const NAME: &'static CStr = c"key-is-sig";
///     const DRIVER_NAME: &'static CStr = c"key-is-sig-example";
///     const PRIORITY: i32 = 100;
///     const KEY_SIZE: u32 = 4;
///     const MAX_SIZE: u32 = 4;
///     type Key = [u8; 4];
///     type Scratch = [u8; 4];
///
///     fn set_pub_key(key: &mut [u8; 4], pk: &[u8]) -> Result {
///         Input::from_slice(pk).copy_to(key)
///     }
///
///     fn verify(key: &[u8; 4], copy: &mut [u8; 4], sig: Input<'_>, _: Input<'_>) -> Result {
///         sig.copy_to(copy)?;
///         if copy == key { Ok(()) } else { Err(EKEYREJECTED) }
///     }
/// }
///
/// // In FIPS mode the crypto API refuses algorithms that it has no self-test for.
/// if fips_enabled() {
///     return Ok(());
/// }
/// let module = kernel::module::this_module::<crate::LocalModule>();
/// let _registration = Registration::<KeyIsSig>::new(module)?;
/// let mut tfm = Sig::new(c"key-is-sig")?;
/// assert_eq!(tfm.driver_name(), c"key-is-sig-example");
/// tfm.set_pub_key(b"abcd")?;
/// assert_eq!(tfm.verify(b"abcd", b"a message"), Ok(()));
/// assert_eq!(tfm.verify(b"abce", b"a message"), Err(EKEYREJECTED));
/// assert_eq!(tfm.verify(b"abc", b"a message"), Err(EINVAL));
/// # Ok::<(), Error>(())
/// ```
///
/// # Invariants
///
/// `alg` holds a `struct sig_alg` allocated as a [`KBox`] by [`Registration::new`] and
/// registered with `crypto_register_sig()`, until `drop` unregisters it; its `cra_destroy`
/// frees it.
#[must_use = "dropping the registration unregisters the algorithm"]
pub struct Registration<T: SigAlg> {
    alg: NonNull<Opaque<bindings::sig_alg>>,
    _t: PhantomData<T>,
}

// SAFETY: The crypto API may be called from any thread to unregister the algorithm.
unsafe impl<T: SigAlg> Send for Registration<T> {}

// SAFETY: `&Registration` gives no access to the algorithm.
unsafe impl<T: SigAlg> Sync for Registration<T> {}

impl<T: SigAlg> Registration<T> {
    /// Registers `T`, as an algorithm of `module`.
    pub fn new(module: &'static ThisModule) -> Result<Self> {
        let alg = KBox::new(Opaque::new(Adapter::<T>::alg(module)), GFP_KERNEL)?;
        let alg = NonNull::from(KBox::leak(alg));
        let ptr = Opaque::cast_into(alg.as_ptr());
        // SAFETY: `alg` holds a valid `struct sig_alg`, which stays at its address until
        // `cra_destroy` frees it.
        if let Err(e) = to_result(unsafe { bindings::crypto_register_sig(ptr) }) {
            // SAFETY: `alg` came from `KBox::leak()`. The crypto API holds no reference to
            // an algorithm it did not register, and never frees it: `cra_destroy` is unset.
            drop(unsafe { KBox::from_raw(alg.as_ptr()) });
            return Err(e);
        }
        // SAFETY: The algorithm is registered, so it is valid; the crypto API reads
        // `cra_destroy` only when its last reference goes, and the registration holds one
        // until `drop` unregisters it, after this write. Set only now, so that a failed
        // registration (which drops the reference on some paths) never frees it.
        unsafe { (*ptr).base.cra_destroy = Some(Adapter::<T>::destroy) };
        // INVARIANT: `alg` is registered, and freed by `cra_destroy`.
        Ok(Self {
            alg,
            _t: PhantomData,
        })
    }
}

impl<T: SigAlg> Drop for Registration<T> {
    fn drop(&mut self) {
        // SAFETY: By the type invariant, `alg` is registered. The crypto API frees it when
        // its last tfm is gone; it is not used here after this.
        unsafe { bindings::crypto_unregister_sig(Opaque::cast_into(self.alg.as_ptr())) };
    }
}

/// A tfm of a signature algorithm, for verifying: a `struct crypto_sig`.
///
/// # Invariants
///
/// `tfm` is a tfm that `crypto_alloc_sig()` returned and that is freed only by `drop`.
pub struct Sig {
    tfm: NonNull<bindings::crypto_sig>,
}

// SAFETY: A tfm may be used and freed from any thread.
unsafe impl Send for Sig {}

impl Sig {
    /// Allocates a tfm of the algorithm (or driver) `name`.
    pub fn new(name: &CStr) -> Result<Self> {
        // SAFETY: `name` is a NUL-terminated string.
        let tfm = from_err_ptr(unsafe { bindings::crypto_alloc_sig(name.as_char_ptr(), 0, 0) })?;
        // INVARIANT: `crypto_alloc_sig()` succeeded.
        NonNull::new(tfm).map(|tfm| Self { tfm }).ok_or(ENOMEM)
    }

    /// The name of the implementation in use.
    pub fn driver_name(&self) -> &CStr {
        // SAFETY: `self.tfm` is valid, and its algorithm's name lives at least as long.
        unsafe { CStr::from_char_ptr(bindings::crypto_sig_driver_name(self.tfm.as_ptr())) }
    }

    /// The size of the largest signature.
    pub fn max_size(&self) -> u32 {
        // SAFETY: `self.tfm` is valid.
        unsafe { bindings::crypto_sig_maxsize(self.tfm.as_ptr()) }
    }

    /// Sets the public key, from its encoding `key`.
    pub fn set_pub_key(&mut self, key: &[u8]) -> Result {
        let len = key.len().try_into()?;
        // SAFETY: `self.tfm` is valid and ours alone; `key` holds `len` bytes.
        to_result(unsafe {
            bindings::crypto_sig_set_pubkey(self.tfm.as_ptr(), key.as_ptr().cast(), len)
        })
    }

    /// Verifies `sig`, a signature of `msg`.
    pub fn verify(&self, sig: &[u8], msg: &[u8]) -> Result {
        let (slen, dlen) = (sig.len().try_into()?, msg.len().try_into()?);
        // SAFETY: `self.tfm` is valid; `sig` and `msg` hold `slen` and `dlen` bytes.
        to_result(unsafe {
            bindings::crypto_sig_verify(
                self.tfm.as_ptr(),
                sig.as_ptr().cast(),
                slen,
                msg.as_ptr().cast(),
                dlen,
            )
        })
    }
}

impl Drop for Sig {
    fn drop(&mut self) {
        // SAFETY: By the type invariant, `self.tfm` is ours to free.
        unsafe { bindings::crypto_free_sig(self.tfm.as_ptr()) };
    }
}
