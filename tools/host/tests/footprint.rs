//! The memory budget: workspace size and the stack of the verify call itself.

use mldsa_host::measure::{heap_used, stack_used};
use mldsa_host::mldsa_verify::Workspace;
use mldsa_host::peers::sets;
use mldsa_host::{verify_with, Message};

#[test]
fn workspace_and_stack_within_budget() {
    let budgets = [(6 << 10, 1 << 10), (7 << 10, 1 << 10), (9 << 10, 1 << 10)];
    let sizes = [
        std::mem::size_of::<Workspace<4>>(),
        std::mem::size_of::<Workspace<5>>(),
        std::mem::size_of::<Workspace<7>>(),
    ];
    let mut ws4 = Box::new(Workspace::<4>::new());
    let mut ws5 = Box::new(Workspace::<5>::new());
    let mut ws7 = Box::new(Workspace::<7>::new());
    for (n, set) in sets().iter().enumerate() {
        let seed = [n as u8; 32];
        let (pk, sig) = ((set.keypair)(&seed), (set.sign)(&seed, b"m", b""));
        let m = Message::Pure {
            msg: b"m",
            ctx: b"",
        };
        let ((r, heap), stack) = stack_used(|| {
            heap_used(|| match n {
                0 => verify_with(set.p, &mut ws4, &pk, &sig, m),
                1 => verify_with(set.p, &mut ws5, &pk, &sig, m),
                _ => verify_with(set.p, &mut ws7, &pk, &sig, m),
            })
        });
        assert_eq!(r, Ok(()));
        println!(
            "{}: workspace {} bytes, stack {stack} bytes, heap {heap} bytes",
            set.name, sizes[n]
        );
        assert!(
            sizes[n] <= budgets[n].0,
            "{} workspace {} bytes",
            set.name,
            sizes[n]
        );
        assert!(
            stack <= budgets[n].1 && stack > 0,
            "{} stack {stack} bytes",
            set.name
        );
        assert_eq!(heap, 0, "{} allocated", set.name);
    }
}
