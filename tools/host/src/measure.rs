//! Stack and heap used by one call, measured on the host.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting live bytes and their peak.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to `System`, only adding counters.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(live, Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        // SAFETY: `p` came from `alloc` above with the same layout.
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Peak heap bytes allocated during `f`, above what was live before it.
pub fn heap_used<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let r = f();
    (r, PEAK.load(Relaxed) - base)
}

/// Stack bytes used by `f`: runs it on a fresh stack painted with a pattern and counts
/// how much of the pattern was overwritten.
pub fn stack_used<R>(f: impl FnOnce() -> R) -> (R, usize) {
    const SIZE: usize = 1 << 20;
    const PAINT: u8 = 0xa5;
    let mut stack = vec![PAINT; SIZE];
    let base = (stack.as_mut_ptr() as usize + 4095) & !4095;
    let len = SIZE - 4096;
    // SAFETY: [base, base + len) lies inside `stack`, which outlives the call, is
    // page-aligned and is used by nothing else while `f` runs on it.
    let r = unsafe { psm::on_stack(base as *mut u8, len, f) };
    let off = base - stack.as_ptr() as usize;
    let untouched = stack[off..off + len]
        .iter()
        .take_while(|&&b| b == PAINT)
        .count();
    (r, len - untouched)
}
