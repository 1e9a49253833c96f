// SPDX-License-Identifier: GPL-2.0

//! A build-time check of `kernel::crypto::sig`: a [`SigAlg`] whose name does not fit
//! `cra_name` with its NUL (`CRYPTO_MAX_ALG_NAME`, 128 bytes) must fail the build, where the
//! crypto API would truncate it. tools/lib/build.sh builds this module with the file `name`
//! next to it: 127 bytes and a NUL must build, 128 bytes and a NUL must fail on the
//! assertion `NAMES_FIT` of the abstraction.

use core::ffi::CStr;
use kernel::crypto::sig::{Input, Registration, SigAlg};
use kernel::prelude::*;

module! {
    type: NameCheck,
    name: "sig_name_check",
    license: "GPL",
}

struct Alg;

impl SigAlg for Alg {
    const NAME: &'static CStr = match CStr::from_bytes_with_nul(include_bytes!("name")) {
        Ok(name) => name,
        Err(_) => panic!("the file `name` must end in its only NUL"),
    };
    const DRIVER_NAME: &'static CStr = Self::NAME;
    const PRIORITY: i32 = 0;
    const KEY_SIZE: u32 = 1;
    const MAX_SIZE: u32 = 1;
    type Key = [u8; 1];
    type Scratch = [u8; 1];

    fn set_pub_key(_key: &mut Self::Key, _pk: &[u8]) -> Result {
        Err(EINVAL)
    }

    fn verify(
        _key: &Self::Key,
        _scratch: &mut Self::Scratch,
        _sig: Input<'_>,
        _msg: Input<'_>,
    ) -> Result {
        Err(EINVAL)
    }
}

struct NameCheck {
    _alg: Registration<Alg>,
}

impl kernel::Module for NameCheck {
    fn init(module: &'static ThisModule) -> Result<Self> {
        Ok(Self {
            _alg: Registration::new(module)?,
        })
    }
}
