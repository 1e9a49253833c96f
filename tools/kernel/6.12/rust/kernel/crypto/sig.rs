// SPDX-License-Identifier: GPL-2.0

//! Public key signature verification algorithms.
//!
//! An algorithm implements [`SigAlg`] and is registered with the crypto API by a
//! [`Registration`], after which `crypto_alloc_sig()` and `crypto_alloc_akcipher()` find it
//! by name. In this kernel a signature algorithm is an akcipher algorithm: the signature and
//! then the message come in one scatterlist, and `crypto_sig_verify()` calls it that way too.
//! Rust callers verify through [`Sig`].
//!
//! C headers: [`include/crypto/sig.h`](srctree/include/crypto/sig.h) and
//! [`include/crypto/internal/akcipher.h`](srctree/include/crypto/internal/akcipher.h).

use crate::{
    bindings,
    error::{code::*, from_err_ptr, from_result, to_result},
    ffi::{c_char, c_int, c_uint, c_void},
    init::Zeroable,
    prelude::*,
    scatterlist::SgList,
    types::Opaque,
};
use core::{ffi::CStr, marker::PhantomData, ptr::NonNull};

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
/// # Ok::<(), Error>(())
/// ```
pub struct Input<'a>(Source<'a>);

enum Source<'a> {
    Slice(&'a [u8]),
    /// `len` bytes of `list` from byte `skip` on.
    Sg {
        list: SgList<'a>,
        skip: usize,
        len: usize,
    },
}

impl<'a> Input<'a> {
    /// The bytes of `data`.
    pub fn from_slice(data: &'a [u8]) -> Self {
        Self(Source::Slice(data))
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        match self.0 {
            Source::Slice(s) => s.len(),
            Source::Sg { len, .. } => len,
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` on consecutive pieces of the bytes, in order, which together are all of
    /// them; fails with `EINVAL` if a scatterlist holds fewer bytes than the request says.
    /// `f` must not sleep: the pieces may be atomic mappings.
    pub fn for_each_piece(&self, mut f: impl FnMut(&[u8])) -> Result {
        match self.0 {
            Source::Slice(s) => {
                f(s);
                Ok(())
            }
            Source::Sg { list, skip, len } => list.for_each_piece(skip, len, f),
        }
    }

    /// Copies the bytes into `dst`, which must be exactly as long; fails with `EINVAL`
    /// otherwise.
    pub fn copy_to(&self, dst: &mut [u8]) -> Result {
        if dst.len() != self.len() {
            return Err(EINVAL);
        }
        let mut at = 0;
        self.for_each_piece(|piece| {
            // `for_each_piece` gives `self.len()` bytes in all, `dst.len()`.
            dst[at..at + piece.len()].copy_from_slice(piece);
            at += piece.len();
        })
    }
}

/// A signature verification algorithm: the operations of a verify-only `struct akcipher_alg`.
///
/// Algorithms registered through this trait verify only: sign, encrypt, decrypt and
/// set_priv_key give `-EOPNOTSUPP`. Each tfm holds a [`SigAlg::Key`], and each request a
/// [`SigAlg::Scratch`] in its request context, so that requests on one tfm run in parallel.
pub trait SigAlg {
    /// The algorithm's name, which `crypto_alloc_sig()` looks up, e.g. `c"mldsa65"`.
    const NAME: &'static CStr;

    /// The name of this implementation, unique among all algorithms.
    const DRIVER_NAME: &'static CStr;

    /// The rank among implementations of [`SigAlg::NAME`]: the highest is used.
    const PRIORITY: i32;

    /// The size of a public key (unused by this kernel, whose akcipher has no key size).
    const KEY_SIZE: u32;

    /// The size of the largest signature, in bytes.
    const MAX_SIZE: u32;

    /// The public key of a tfm: all-zero bytes when the tfm is allocated.
    type Key: Zeroable + Send + Sync + Unpin;

    /// The memory a verification works in: all-zero bytes when it starts. It is in the
    /// request context, which the crypto API frees cleared (`akcipher_request_free()`).
    type Scratch: Zeroable + Send + Unpin;

    /// Sets `key` from its encoding `pk`.
    fn set_pub_key(key: &mut Self::Key, pk: &[u8]) -> Result;

    /// Verifies `sig`, a signature of `msg`, under `key`.
    fn verify(
        key: &Self::Key,
        scratch: &mut Self::Scratch,
        sig: Input<'_>,
        msg: Input<'_>,
    ) -> Result;
}

/// Verifies `sig`, a signature of `msg`, under `key`, as a request on a tfm of `T` does but
/// without one: in a [`SigAlg::Scratch`] that it allocates and frees cleared, as the crypto
/// API frees a request (`akcipher_request_free()`). For an algorithm's self-tests, which run
/// before it is registered.
pub fn verify_without_tfm<T: SigAlg>(key: &T::Key, sig: Input<'_>, msg: Input<'_>) -> Result {
    let mut scratch = KVBox::<T::Scratch>::init(crate::init::zeroed(), GFP_KERNEL)?;
    let verified = T::verify(key, &mut scratch, sig, msg);
    free_cleared(scratch);
    verified
}

/// Frees `scratch` as `kvfree_sensitive()` does: cleared first, so that what a verification
/// computed does not stay in freed memory.
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

/// Bytes to reserve for a `T` in a tfm or request context, which is only `CRYPTO_MINALIGN`
/// aligned: enough to align it (see [`aligned`]). Evaluated in a constant, a `T` whose size
/// the crypto API's `unsigned int` cannot hold fails the build.
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

/// The `struct akcipher_alg` callbacks of `T`.
struct Adapter<T>(PhantomData<T>);

impl<T: SigAlg> Adapter<T> {
    /// Bytes of a tfm context: a [`SigAlg::Key`].
    const CTX_SIZE: c_uint = padded_size::<T::Key>();

    /// Bytes of a request context: a [`SigAlg::Scratch`].
    const REQ_SIZE: c_uint = padded_size::<T::Scratch>();

    /// The key in the context of `tfm`.
    ///
    /// # Safety
    ///
    /// `tfm` must be a tfm of a [`Registration<T>`]'s algorithm.
    unsafe fn key(tfm: *mut bindings::crypto_akcipher) -> *mut T::Key {
        // SAFETY: By the safety requirement; the context is `cra_ctxsize` =
        // `Self::CTX_SIZE` bytes, zeroed when the tfm was allocated, so the aligned slot holds
        // a `T::Key`.
        aligned(unsafe { bindings::akcipher_tfm_ctx(tfm) })
    }

    /// # Safety
    ///
    /// `tfm` must be a new tfm of the algorithm of `T`, passed by the crypto API to
    /// `akcipher_alg::init`.
    unsafe extern "C" fn init_tfm(tfm: *mut bindings::crypto_akcipher) -> c_int {
        // SAFETY: The crypto API passes a new tfm of the algorithm.
        unsafe { bindings::akcipher_set_reqsize(tfm, Self::REQ_SIZE) };
        0
    }

    /// # Safety
    ///
    /// `tfm` must be a tfm of the algorithm of `T`, passed by the crypto API to
    /// `akcipher_alg::exit`.
    unsafe extern "C" fn exit_tfm(tfm: *mut bindings::crypto_akcipher) {
        // SAFETY: The crypto API passes a tfm of the algorithm, for the last time.
        unsafe { core::ptr::drop_in_place(Self::key(tfm)) };
    }

    /// # Safety
    ///
    /// `tfm` must be a tfm of the algorithm of `T`, and `key` valid for reads of `keylen`
    /// bytes during the call, as the crypto API passes them to `akcipher_alg::set_pub_key`.
    unsafe extern "C" fn set_pub_key(
        tfm: *mut bindings::crypto_akcipher,
        key: *const c_void,
        keylen: c_uint,
    ) -> c_int {
        let pk = if keylen == 0 {
            &[][..]
        } else {
            // SAFETY: The caller passes `keylen` bytes at `key`, readable during the call.
            unsafe { core::slice::from_raw_parts(key.cast(), keylen as usize) }
        };
        // SAFETY: The crypto API passes a tfm of the algorithm. Its callers set the key
        // before they start requests on the tfm, never while one runs, so nothing else
        // accesses the key during the call.
        let key = unsafe { &mut *Self::key(tfm) };
        from_result(|| T::set_pub_key(key, pk).map(|()| 0))
    }

    /// The signature and then the message in `req->src`: `src_len` bytes of signature and
    /// `dst_len` of message.
    ///
    /// # Safety
    ///
    /// `req` must be a request on a tfm of the algorithm of `T`, passed by the crypto API
    /// to `akcipher_alg::verify`.
    unsafe extern "C" fn verify(req: *mut bindings::akcipher_request) -> c_int {
        // SAFETY: The crypto API passes a valid request on a tfm of the algorithm, whose key
        // is only read while requests run. The request context is `Self::REQ_SIZE` bytes
        // (`init_tfm`), ours during the call; zeroing the aligned slot makes it a valid
        // `T::Scratch`. `src` holds `src_len + dst_len` bytes that stay readable and
        // unchanged during the call.
        let (key, scratch, sig, msg) = unsafe {
            let key = &*Self::key(bindings::crypto_akcipher_reqtfm(req));
            let scratch = aligned::<T::Scratch>(bindings::akcipher_request_ctx(req));
            scratch.write_bytes(0, 1);
            let list = SgList::from_raw((*req).src);
            let (slen, dlen) = ((*req).src_len as usize, (*req).dst_len as usize);
            (
                key,
                &mut *scratch,
                Input(Source::Sg {
                    list,
                    skip: 0,
                    len: slen,
                }),
                Input(Source::Sg {
                    list,
                    skip: slen,
                    len: dlen,
                }),
            )
        };
        from_result(|| T::verify(key, scratch, sig, msg).map(|()| 0))
    }

    extern "C" fn unsupported(_req: *mut bindings::akcipher_request) -> c_int {
        EOPNOTSUPP.to_errno()
    }

    extern "C" fn set_priv_key(
        _tfm: *mut bindings::crypto_akcipher,
        _key: *const c_void,
        _keylen: c_uint,
    ) -> c_int {
        EOPNOTSUPP.to_errno()
    }

    extern "C" fn max_size(_tfm: *mut bindings::crypto_akcipher) -> c_uint {
        T::MAX_SIZE
    }

    /// # Safety
    ///
    /// `alg` must be the `base` of a `struct akcipher_alg` that [`Registration::new`] allocated,
    /// passed by the crypto API to `cra_destroy` when it drops its last reference.
    unsafe extern "C" fn destroy(alg: *mut bindings::crypto_alg) {
        // SAFETY: By the safety requirement, `alg` is the `base` of a `struct akcipher_alg`, the
        // contents of the `Opaque` that `Registration::new` leaked from a `KBox`, and nothing
        // uses it any more.
        drop(unsafe {
            let alg = crate::container_of!(alg, bindings::akcipher_alg, base);
            KBox::from_raw(alg.cast_mut().cast::<Opaque<bindings::akcipher_alg>>())
        });
    }

    /// The names of `T` fit `cra_name` and `cra_driver_name` with their NUL: a longer one
    /// fails the build, where the crypto API would truncate it.
    const NAMES_FIT: () = assert!(
        T::NAME.to_bytes().len() < bindings::CRYPTO_MAX_ALG_NAME as usize
            && T::DRIVER_NAME.to_bytes().len() < bindings::CRYPTO_MAX_ALG_NAME as usize
    );

    /// The `struct akcipher_alg` of `T`, owned by `module`.
    fn alg(module: &'static ThisModule) -> bindings::akcipher_alg {
        // SAFETY: All-zero bytes are a valid `struct akcipher_alg`: null pointers, `None`
        // callbacks and zero integers.
        let mut alg: bindings::akcipher_alg = unsafe { core::mem::zeroed() };
        alg.init = Some(Self::init_tfm);
        alg.exit = Some(Self::exit_tfm);
        alg.set_pub_key = Some(Self::set_pub_key);
        alg.set_priv_key = Some(Self::set_priv_key);
        alg.verify = Some(Self::verify);
        alg.sign = Some(Self::unsupported);
        alg.encrypt = Some(Self::unsupported);
        alg.decrypt = Some(Self::unsupported);
        alg.max_size = Some(Self::max_size);
        let () = Self::NAMES_FIT;
        let base = &mut alg.base;
        copy_name(&mut base.cra_name, T::NAME);
        copy_name(&mut base.cra_driver_name, T::DRIVER_NAME);
        base.cra_priority = T::PRIORITY;
        base.cra_ctxsize = Self::CTX_SIZE;
        base.cra_module = module.as_ptr();
        alg
    }
}

/// Copies `name` into the C string field `dst`, with its NUL, which [`Adapter::NAMES_FIT`]
/// makes sure of at build time for the names of a [`SigAlg`].
fn copy_name(dst: &mut [c_char], name: &CStr) {
    for (d, &c) in dst.iter_mut().zip(name.to_bytes_with_nul()) {
        *d = c as _;
    }
}

/// The registration of a [`SigAlg`] with the crypto API, undone on drop.
///
/// The crypto API may hold the algorithm after `crypto_unregister_akcipher()`: a tfm allocated
/// from it keeps a reference until it is freed, which the unregistration does not wait
/// for. So the `struct akcipher_alg` lives in memory of its own, which the crypto API frees
/// through `cra_destroy` when it drops its last reference.
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
/// # use kernel::ThisModule;
/// # // SAFETY: A null module is what built-in code has, as these examples are.
/// # static THIS_MODULE: ThisModule = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
/// let module = &THIS_MODULE;
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
/// `alg` holds a `struct akcipher_alg` allocated as a [`KBox`] by [`Registration::new`] and
/// registered with `crypto_register_akcipher()`, until `drop` unregisters it; its `cra_destroy`
/// frees it.
#[must_use = "dropping the registration unregisters the algorithm"]
pub struct Registration<T: SigAlg> {
    alg: NonNull<Opaque<bindings::akcipher_alg>>,
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
        let ptr = alg.as_ptr().cast::<bindings::akcipher_alg>();
        // SAFETY: `alg` holds a valid `struct akcipher_alg`, which stays at its address until
        // `cra_destroy` frees it.
        if let Err(e) = to_result(unsafe { bindings::crypto_register_akcipher(ptr) }) {
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
        unsafe { bindings::crypto_unregister_akcipher(self.alg.as_ptr().cast()) };
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
        let tfm = from_err_ptr(unsafe { bindings::crypto_alloc_sig(name.as_ptr().cast(), 0, 0) })?;
        // INVARIANT: `crypto_alloc_sig()` succeeded.
        NonNull::new(tfm).map(|tfm| Self { tfm }).ok_or(ENOMEM)
    }

    /// The name of the implementation in use.
    pub fn driver_name(&self) -> &CStr {
        // SAFETY: `self.tfm` is valid, and its algorithm's name lives at least as long.
        unsafe { CStr::from_ptr(bindings::crypto_sig_driver_name(self.tfm.as_ptr()).cast()) }
    }

    /// The size of the largest signature.
    pub fn max_size(&self) -> u32 {
        // SAFETY: `self.tfm` is valid.
        unsafe { bindings::crypto_sig_maxsize(self.tfm.as_ptr()) as u32 }
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
