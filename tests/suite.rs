// SPDX-License-Identifier: GPL-2.0

//! How the suite `mldsa_rust` is declared: on 7.x with `#[kunit_tests]`; the 6.12
//! `kernel::kunit` module only offers `kunit_assert!`, so there the suite is laid out by hand
//! as in C: a zero-terminated array of `kunit_case`, a `kunit_suite`, and a pointer to the
//! suite in `.kunit_test_suites`.

/// Declares the suite `mldsa_rust` of the case functions listed (`file::case`): with
/// `#[kunit_tests]` on 7.x, and on 6.12, which has no such macro, laid out the way
/// `KUNIT_CASE()` and `kunit_test_suite()` lay it out in C. A case listed `if cfg else why`
/// runs where `cfg` holds, and elsewhere is skipped with the comment `why`.
macro_rules! suite {
    ($($file:ident::$case:ident $(if $cfg:meta else $why:literal)?,)*) => {
        #[cfg(not(linux_6_12))]
        #[kunit_tests(mldsa_rust)]
        mod cases {
            $(
                #[test]
                fn $case() {
                    $(#[cfg(not($cfg))] super::skip($why);)?
                    $(#[cfg($cfg)])? super::$file::$case();
                }
            )*
        }

        #[cfg(linux_6_12)]
        mod cases {
            use core::ptr::addr_of_mut;
            use kernel::bindings;

            $(
                extern "C" fn $case(_test: *mut bindings::kunit) {
                    $(#[cfg(not($cfg))] super::skip($why);)?
                    $(#[cfg($cfg)])? super::$file::$case();
                }
            )*

            /// A `KUNIT_CASE()` of `run`, named `name` (with its NUL).
            const fn case(
                name: &'static str,
                run: extern "C" fn(*mut bindings::kunit),
            ) -> bindings::kunit_case {
                // SAFETY: `kunit_case` is plain C data for which all-zero bytes are a valid
                // value: null pointers, `None` function pointers and the zero variant of each
                // enum.
                let mut case: bindings::kunit_case = unsafe { core::mem::zeroed() };
                case.run_case = Some(run);
                case.name = name.as_ptr();
                case
            }

            static mut CASES: [bindings::kunit_case; [$(stringify!($case)),*].len() + 1] = [
                $(case(concat!(stringify!($case), "\0"), $case),)*
                // SAFETY: An all-zero case terminates the array, as `{}` does in C.
                unsafe { core::mem::zeroed() },
            ];

            /// The suite, named like the module.
            static mut SUITE: bindings::kunit_suite = {
                // SAFETY: `kunit_suite` is plain C data for which all-zero bytes are a valid
                // value.
                let mut suite: bindings::kunit_suite = unsafe { core::mem::zeroed() };
                let name = b"mldsa_rust";
                let mut i = 0;
                while i < name.len() {
                    suite.name[i] = name[i];
                    i += 1;
                }
                suite.test_cases = addr_of_mut!(CASES).cast();
                suite
            };

            /// What `kunit_test_suite()` emits: KUnit runs every suite listed in this section
            /// (built-in suites at boot, a module's suites when it is loaded).
            #[used]
            #[link_section = ".kunit_test_suites"]
            static mut SUITE_PTR: *mut bindings::kunit_suite = addr_of_mut!(SUITE);
        }
    };
}
