// SPDX-License-Identifier: GPL-2.0

//! A build-time check of `kernel::crypto::sha3`: a SHAKE context takes no input once it has
//! been squeezed (FIPS 202; `shake_update()` must not follow `shake_squeeze()`). The
//! abstraction's types say so: an `Absorbing` is consumed by its squeeze, and the
//! `Squeezing` it turns into has no `update`. tools/lib/build.sh builds this module with
//! the file `late` next to it: `()` must build, and an update through either handle after
//! the squeeze must fail to build.

use kernel::crypto::sha3::Shake;
use kernel::prelude::*;

module! {
    type: ShakeSqueezed,
    name: "shake_squeezed",
    license: "GPL",
}

struct ShakeSqueezed;

impl kernel::Module for ShakeSqueezed {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let (mut h, mut out) = (Shake::new(), [0u8; 8]);
        let mut absorbing = h.init256();
        absorbing.update(b"abc");
        let mut squeezing = absorbing.squeeze(&mut out);
        include!("late");
        squeezing.squeeze(&mut out);
        Ok(Self)
    }
}
