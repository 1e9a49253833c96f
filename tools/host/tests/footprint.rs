//! The memory budget: workspace size and the stack of the verify call itself (key decoding
//! included).

mod common;

use mldsa_host::measure::{heap_used, stack_used};
use mldsa_host::peers::sets;
use mldsa_host::{Message, Workspaces};

/// Bytes of stack a verify may use: 1 KiB, as in the kernel on x86_64. The s390x ABI gives
/// every call frame a 160-byte register save area, so there (the big-endian run) 2 KiB.
const STACK_LIMIT: usize = if cfg!(target_arch = "s390x") {
    2048
} else {
    1024
};

#[test]
fn workspace_and_stack_within_budget() {
    common::on_each_path(|| {
        let budgets = [6 << 10, 7 << 10, 9 << 10];
        let mut ws = Workspaces::boxed();
        for (n, set) in sets().iter().enumerate() {
            let seed = [n as u8; 32];
            let (pk, sig) = ((set.keypair)(&seed), (set.sign)(&seed, b"m", b""));
            let m = Message::Pure {
                msg: b"m",
                ctx: b"",
            };
            let ((r, heap), stack) = stack_used(|| heap_used(|| ws.verify(set.p, &pk, &sig, m)));
            let (size, key) = Workspaces::size_of(set.p);
            assert_eq!(r, Ok(()));
            println!(
                "{}: workspace {size} bytes, decoded key {key} bytes, stack {stack} bytes, \
                 heap {heap} bytes",
                set.name
            );
            assert!(size <= budgets[n], "{} workspace {size} bytes", set.name);
            assert!(
                stack <= STACK_LIMIT && stack > 0,
                "{} stack {stack} bytes",
                set.name
            );
            assert_eq!(heap, 0, "{} allocated", set.name);
        }
    });
}
