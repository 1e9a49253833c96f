// SPDX-License-Identifier: GPL-2.0

//! The algorithms `mldsa44`, `mldsa65` and `mldsa87` through the crypto API: registration,
//! the answers to valid, corrupted, malformed and mis-sized inputs, the mutated known answers of
//! `vectors.rs` (also through `mldsa_verify()`), and the self-test.

use super::*;
use crate::alg::MlDsa;
use crate::params::MlDsa44;
use kernel::crypto::sig::{Input, Registration, Sig, SigAlg};

check_at!($ "tests/binding.rs", c"tests/binding.rs");

/// Each algorithm is registered under its name, as sig (and, on 6.12, as akcipher), and on
/// 7.x it is this module's driver that the name picks.
pub(super) fn alloc_by_name() {
    for (name, p, k) in SETS {
        let tfm = tfm_with_key!(name, k);
        check!(tfm.max_size() as usize == p.sig_len());
        check!(tfm.verify(k.sig, k.msg) == 0);
        #[cfg(not(linux_6_12))]
        {
            let driver = tfm.driver_name().to_bytes();
            check!(driver.len() == name.to_bytes().len() + 5);
            check!(driver.starts_with(name.to_bytes()) && driver.ends_with(b"-rust"));
        }
        #[cfg(linux_6_12)]
        crypto_sig_over_akcipher(name, p, k);
    }
}

/// On 6.12, `crypto_sig` reaches the akcipher algorithm `name` too.
#[cfg(linux_6_12)]
pub(super) fn crypto_sig_over_akcipher(name: &CStr, p: &Params, k: &Kat) {
    let sig = Sig::new(name);
    check!(sig.is_ok());
    let mut sig = sig.unwrap();
    check!(sig.max_size() as usize == p.sig_len());
    check!(sig.set_pub_key(k.pk).is_ok());
    check!(sig.verify(k.sig, k.msg).is_ok());
}

/// ML-DSA-44 under names of its own, for [`tfm_outlives_registration`].
struct Unlisted;

impl SigAlg for Unlisted {
    const NAME: &'static CStr = c"mldsa44-kunit";
    const DRIVER_NAME: &'static CStr = c"mldsa44-kunit-rust";
    const PRIORITY: i32 = 0;
    const KEY_SIZE: u32 = MlDsa::<MlDsa44>::KEY_SIZE;
    const MAX_SIZE: u32 = MlDsa::<MlDsa44>::MAX_SIZE;
    type Key = <MlDsa<MlDsa44> as SigAlg>::Key;
    type Scratch = <MlDsa<MlDsa44> as SigAlg>::Scratch;

    fn set_pub_key(key: &mut Self::Key, pk: &[u8]) -> Result {
        MlDsa::<MlDsa44>::set_pub_key(key, pk)
    }

    fn verify(
        key: &Self::Key,
        scratch: &mut Self::Scratch,
        sig: Input<'_>,
        msg: Input<'_>,
    ) -> Result {
        MlDsa::<MlDsa44>::verify(key, scratch, sig, msg)
    }
}

/// This module, which `module!` declares differently after 6.12.
fn this_module() -> &'static ThisModule {
    #[cfg(linux_6_12)]
    return &crate::THIS_MODULE;
    #[cfg(not(linux_6_12))]
    &<crate::MlDsaModule as kernel::ModuleMetadata>::THIS_MODULE
}

/// A tfm outlives the registration of its algorithm: it still verifies after the
/// registration is dropped, the name no longer finds the algorithm, and freeing the tfm
/// frees the algorithm (the debug kernel's KASAN and kmemleak watch both). Linux 6.12's
/// `crypto_unregister_alg()` warns about the tfm, and keeps the algorithm for ever.
pub(super) fn tfm_outlives_registration() {
    let k = &kat::ML_DSA_44;
    let reg = Registration::<Unlisted>::new(this_module());
    check!(reg.is_ok());
    let tfm = Sig::new(Unlisted::NAME);
    check!(tfm.is_ok());
    let mut tfm = tfm.unwrap();
    check!(tfm.set_pub_key(k.pk).is_ok());
    #[cfg(linux_6_12)]
    pr_info!("    # tfm_outlives_registration: expected WARNING at crypto/algapi.c\n");
    drop(reg);
    check!(tfm.verify(k.sig, k.msg).is_ok());
    check!(Sig::new(Unlisted::DRIVER_NAME).is_err());
    drop(tfm);
    // The names are free again.
    let reg = Registration::<Unlisted>::new(this_module());
    check!(reg.is_ok());
    check!(Sig::new(Unlisted::DRIVER_NAME).is_ok());
}

/// Valid signatures verify; one-bit changes to signature, message or key give EKEYREJECTED.
pub(super) fn bit_flips_rejected() {
    for (name, p, k) in SETS {
        let mut tfm = tfm_with_key!(name, k);
        check!(tfm.verify(k.sig, k.msg) == 0);
        let mut sig = KVec::from_elem(0u8, k.sig.len(), GFP_KERNEL).unwrap();
        let mut msg = KVec::from_elem(0u8, k.msg.len(), GFP_KERNEL).unwrap();
        let mut pk = KVec::from_elem(0u8, k.pk.len(), GFP_KERNEL).unwrap();
        // In c~ (first and last byte), in the message, in rho and in t1.
        for (byte, bit) in [(0, 0), (p.c_tilde_len() - 1, 7)] {
            sig.copy_from_slice(k.sig);
            sig[byte] ^= 1 << bit;
            check!(tfm.verify(&sig, k.msg) == EKEYREJECTED.to_errno());
        }
        for (byte, bit) in [(0, 0), (k.msg.len() - 1, 7)] {
            msg.copy_from_slice(k.msg);
            msg[byte] ^= 1 << bit;
            check!(tfm.verify(k.sig, &msg) == EKEYREJECTED.to_errno());
        }
        for (byte, bit) in [(0, 0), (31, 7), (32, 0), (k.pk.len() - 1, 7)] {
            pk.copy_from_slice(k.pk);
            pk[byte] ^= 1 << bit;
            check!(tfm.set_pub_key(&pk) == 0);
            check!(tfm.verify(k.sig, k.msg) == EKEYREJECTED.to_errno());
        }
    }
}

/// Wrong key, signature and request lengths are refused; a key must be set first.
pub(super) fn wrong_lengths_refused() {
    for (name, p, k) in SETS {
        let tfm = Tfm::alloc(name);
        check!(tfm.is_ok());
        let mut tfm = tfm.unwrap();
        check!(tfm.verify(k.sig, k.msg) == EINVAL.to_errno());
        // EINVAL, as Linux 7.x's crypto/mldsa.c gives.
        check!(tfm.set_pub_key(&k.pk[..p.pk_len() - 1]) == EINVAL.to_errno());
        let mut long = KVec::from_elem(0u8, p.pk_len() + 1, GFP_KERNEL).unwrap();
        long[..p.pk_len()].copy_from_slice(k.pk);
        check!(tfm.set_pub_key(&long) == EINVAL.to_errno());
        check!(tfm.set_pub_key(&[]) == EINVAL.to_errno());
        // A refused key leaves the tfm without one.
        check!(tfm.verify(k.sig, k.msg) == EINVAL.to_errno());
        check!(tfm.set_pub_key(k.pk) == 0);
        let sig = k.sig;
        check!(tfm.verify(&sig[..sig.len() - 1], k.msg) == EBADMSG.to_errno());
        let mut sig2 = KVec::from_elem(0u8, sig.len() + 1, GFP_KERNEL).unwrap();
        sig2[..sig.len()].copy_from_slice(sig);
        check!(tfm.verify(&sig2, k.msg) == EBADMSG.to_errno());
        // dst_len larger than the message the scatterlist holds.
        #[cfg(linux_6_12)]
        check!(tfm.verify_sg(&[sig, k.msg], sig.len(), k.msg.len() + 1) == EINVAL.to_errno());
        check!(tfm.verify(sig, k.msg) == 0);
    }
}

/// Sets the first z coefficient of `sig` to `z` (BitPack with b = gamma1, Algorithm 17).
pub(super) fn set_z0(p: &Params, sig: &mut [u8], z: i32) {
    let v = ((1 << p.gamma1_bits) - z) as u32;
    let at = p.c_tilde_len();
    let mut word = u32::from_le_bytes([sig[at], sig[at + 1], sig[at + 2], 0]);
    let mask = (1u32 << p.z_bits()) - 1;
    word = (word & !mask) | v;
    sig[at..at + 3].copy_from_slice(&word.to_le_bytes()[..3]);
}

/// ||z|| at gamma1 - beta and malformed hints give EBADMSG; just inside the bound, EKEYREJECTED.
pub(super) fn malformed_z_and_hints() {
    for (name, p, k) in SETS {
        let tfm = tfm_with_key!(name, k);
        let mut sig = KVec::from_elem(0u8, k.sig.len(), GFP_KERNEL).unwrap();
        let bound = (1 << p.gamma1_bits) - p.beta;
        for (z, want) in [
            (bound, EBADMSG),
            (-bound, EBADMSG),
            (bound - 1, EKEYREJECTED),
            (-(bound - 1), EKEYREJECTED),
        ] {
            sig.copy_from_slice(k.sig);
            set_z0(p, &mut sig, z);
            check!(tfm.verify(&sig, k.msg) == want.to_errno());
        }
        // HintBitUnpack (Algorithm 21): the last count above omega, a count that decreases,
        // and non-zero padding after the last index.
        let ends = sig.len() - p.k;
        let total = k.sig[ends + p.k - 1] as usize;
        sig.copy_from_slice(k.sig);
        sig[ends + p.k - 1] = p.omega as u8 + 1;
        check!(tfm.verify(&sig, k.msg) == EBADMSG.to_errno());
        sig.copy_from_slice(k.sig);
        sig[ends] = sig[ends + 1] + 1;
        check!(tfm.verify(&sig, k.msg) == EBADMSG.to_errno());
        check!(total < p.omega);
        sig.copy_from_slice(k.sig);
        sig[ends - 1] = 1;
        check!(tfm.verify(&sig, k.msg) == EBADMSG.to_errno());
    }
}

/// The vectors of `vectors.rs`, over a thousand known answers with one byte changed
/// (every byte of each hint; bits of c~, z, the message and the key), give their results
/// through the crypto API and through `mldsa_verify()`; on 6.12 also with the signature and
/// message in a scatterlist of uneven entries at odd addresses.
pub(super) fn mutated_vectors() {
    for (i, ((name, _, k), alg)) in SETS.into_iter().zip(ALGS).enumerate() {
        let mut tfm = tfm_with_key!(name, k);
        let mut all = KVec::from_elem(0u8, k.sig.len() + k.msg.len(), GFP_KERNEL).unwrap();
        let mut pk = KVec::from_elem(0u8, k.pk.len(), GFP_KERNEL).unwrap();
        for m in MUTATIONS.iter().filter(|m| m.set == i) {
            all[..k.sig.len()].copy_from_slice(k.sig);
            all[k.sig.len()..].copy_from_slice(k.msg);
            pk.copy_from_slice(k.pk);
            match m.part {
                Part::Sig => all[m.at] ^= m.xor,
                Part::Msg => all[k.sig.len() + m.at] ^= m.xor,
                Part::Pk => pk[m.at] ^= m.xor,
            }
            let (sig, msg) = all.split_at(k.sig.len());
            let want = match m.want {
                Want::Accept => 0,
                Want::Reject => EKEYREJECTED.to_errno(),
                Want::Malformed => EBADMSG.to_errno(),
            };
            if m.part == Part::Pk {
                check!(tfm.set_pub_key(&pk) == 0);
            }
            let lib = lib_verify(alg, sig, msg, &pk);
            let api = tfm.verify(sig, msg);
            #[cfg(linux_6_12)]
            let sg = tfm.verify_sg(&uneven_pieces(&all), sig.len(), msg.len());
            #[cfg(not(linux_6_12))]
            let sg = api; // 7.x's crypto_sig takes flat buffers.
            if [api, sg, lib] != [want; 3] {
                let (at, xor) = (m.at, m.xor);
                pr_err!("{name:?} byte {at} ^ {xor:#x}: {api}, {sg}, {lib}, not {want}\n");
            }
            check!([api, sg, lib] == [want; 3]);
            if m.part == Part::Pk {
                check!(tfm.set_pub_key(k.pk) == 0);
            }
        }
    }
}

/// A message of several pages verifies; with one bit of it flipped, EKEYREJECTED.
pub(super) fn long_message() {
    let k = &vectors::ML_DSA_65_LONG;
    let tfm = tfm_with_key!(c"mldsa65", k);
    check!(tfm.verify(k.sig, k.msg) == 0);
    let mut msg = KVec::from_elem(0u8, k.msg.len(), GFP_KERNEL).unwrap();
    msg.copy_from_slice(k.msg);
    msg[3000] ^= 0x10;
    check!(tfm.verify(k.sig, &msg) == EKEYREJECTED.to_errno());
}

/// The self-test passes on the module's known answers and fails, so that init would stop
/// before registering anything, when one of them is corrupted.
pub(super) fn selftest_detects_corruption() {
    check!(selftest::run(&selftest::KATS).is_ok());
    pr_info!("selftest_detects_corruption: two self-test failures are expected next\n");
    let bad_msg = Kat {
        msg: b"corrupted",
        ..kat::ML_DSA_65
    };
    let bad_pk = Kat {
        pk: kat::ML_DSA_87.pk,
        ..kat::ML_DSA_44
    };
    for bad in [
        [&kat::ML_DSA_44, &bad_msg, &kat::ML_DSA_87],
        [&bad_pk, &kat::ML_DSA_65, &kat::ML_DSA_87],
    ] {
        check!(selftest::run(&bad) == Err(ELIBBAD));
    }
}
