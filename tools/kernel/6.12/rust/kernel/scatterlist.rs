// SPDX-License-Identifier: GPL-2.0

//! Scatterlists, as the kernel hands them to drivers.
//!
//! C header: [`include/linux/scatterlist.h`](srctree/include/linux/scatterlist.h)

use crate::{bindings, prelude::*};
use core::marker::PhantomData;

/// A borrowed scatterlist: a `struct scatterlist` and the entries after it, chained lists
/// included, up to the one marked last.
///
/// # Examples
///
/// ```
/// use kernel::{bindings, scatterlist::SgList};
///
/// let buf = KBox::new([7u8; 100], GFP_KERNEL)?;
/// let mut sg = core::mem::MaybeUninit::<bindings::scatterlist>::zeroed();
/// // SAFETY: `sg_init_one()` makes `sg` a list of one entry, `buf` (kmalloc memory, which
/// // a scatterlist may describe).
/// unsafe { bindings::sg_init_one(sg.as_mut_ptr(), buf.as_ptr().cast(), 100) };
/// // SAFETY: `sg` and `buf` outlive `list`, and nothing writes them while it lives.
/// let list = unsafe { SgList::from_raw(sg.as_mut_ptr()) };
/// let mut len = 0;
/// list.for_each_piece(10, 90, |piece| len += piece.len())?;
/// assert_eq!(len, 90);
/// assert_eq!(list.for_each_piece(10, 91, |_| ()), Err(EINVAL));
/// // A skip that `off_t` cannot hold is refused, not taken as a negative offset.
/// assert_eq!(list.for_each_piece(usize::MAX, 1, |_| ()), Err(EINVAL));
/// # Ok::<(), Error>(())
/// ```
///
/// # Invariants
///
/// `sgl` is null (an empty list) or a valid scatterlist during `'a`, and the memory it
/// describes is readable and not written during `'a`.
#[derive(Clone, Copy)]
pub struct SgList<'a> {
    sgl: *mut bindings::scatterlist,
    _p: PhantomData<&'a bindings::scatterlist>,
}

impl<'a> SgList<'a> {
    /// Wraps `sgl`.
    ///
    /// # Safety
    ///
    /// `sgl` must be null, or a valid scatterlist that stays valid during `'a`, whose data
    /// stays readable and unchanged during `'a`.
    pub unsafe fn from_raw(sgl: *mut bindings::scatterlist) -> Self {
        // INVARIANT: By the safety requirement.
        Self {
            sgl,
            _p: PhantomData,
        }
    }

    /// Calls `f` on `len` bytes of the list, from byte `skip` on, one mapped piece at a time
    /// and in order. Fails with `EINVAL` if the list holds fewer bytes, or if `skip` is
    /// more than `off_t` can hold.
    ///
    /// The pieces are atomic mappings (`SG_MITER_ATOMIC`): `f` must not sleep.
    pub fn for_each_piece(self, skip: usize, mut len: usize, mut f: impl FnMut(&[u8])) -> Result {
        // `sg_miter_skip()` moves backwards on a negative offset.
        let skip = bindings::off_t::try_from(skip).map_err(|_| EINVAL)?;
        let mut miter = core::mem::MaybeUninit::<bindings::sg_mapping_iter>::uninit();
        let miter = miter.as_mut_ptr();
        let flags = bindings::SG_MITER_ATOMIC | bindings::SG_MITER_FROM_SG;
        // SAFETY: `self.sgl` is null or valid (type invariant), `sg_nents()` counts its
        // entries, and `sg_miter_start()` initializes `*miter`.
        unsafe {
            let nents = bindings::sg_nents(self.sgl) as u32;
            bindings::sg_miter_start(miter, self.sgl, nents, flags);
        }
        // SAFETY: `miter` was started above.
        let skipped = unsafe { bindings::sg_miter_skip(miter, skip) };
        // SAFETY: `miter` was started above.
        while skipped && len > 0 && unsafe { bindings::sg_miter_next(miter) } {
            // SAFETY: After `sg_miter_next()` returned true, `addr` maps `length` readable
            // bytes until the next call on `miter`; the slice is dropped before that.
            let piece = unsafe {
                let n = len.min((*miter).length);
                core::slice::from_raw_parts((*miter).addr as *const u8, n)
            };
            f(piece);
            len -= piece.len();
        }
        // SAFETY: `miter` was started above; this drops the last mapping.
        unsafe { bindings::sg_miter_stop(miter) };
        if len == 0 {
            Ok(())
        } else {
            Err(EINVAL)
        }
    }
}
