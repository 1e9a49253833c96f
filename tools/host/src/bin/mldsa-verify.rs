//! mldsa-verify: checks signatures with exactly the code the kernel module runs.
//!
//! One JSON object a line on stdin, one answer a line on stdout: `ok`, `EKEYREJECTED`,
//! `EBADMSG` or `EINVAL`. Input lines look like
//! `{"alg":"ML-DSA-65","pk":HEX,"sig":HEX,"msg":HEX,"ctx":HEX}` (ctx optional), with
//! `"mprime":HEX` (Verify_internal) or `"mu":HEX` (external mu) in place of msg and ctx,
//! or `"ph":"SHA2-512","phm":HEX` (HashML-DSA, with PH(M); ctx optional) in place of msg.
//! The pre-hash names are ACVP's: SHA2-256, SHA2-384, SHA2-512, SHA3-256, SHA3-512,
//! SHAKE-128 and SHAKE-256.

use mldsa_host::mldsa_verify;
use mldsa_host::{errno_name, params, pre_hash, verify, Message};
use mldsa_verify::Error;
use serde_json::Value;
use std::io::{BufRead, Write};

fn field(v: &Value, name: &str) -> Option<Vec<u8>> {
    hex::decode(v.get(name)?.as_str()?).ok()
}

fn check(line: &str) -> Result<(), Error> {
    let v: Value = serde_json::from_str(line).map_err(|_| Error::Inval)?;
    let p = v
        .get("alg")
        .and_then(Value::as_str)
        .and_then(params)
        .ok_or(Error::Inval)?;
    let pk = field(&v, "pk").ok_or(Error::Inval)?;
    let sig = field(&v, "sig").ok_or(Error::Inval)?;
    let hex_field = |name| match v.get(name) {
        None => Ok(None),
        Some(_) => field(&v, name).map(Some).ok_or(Error::Inval),
    };
    let (msg, ctx, mprime, mu, phm) = (
        hex_field("msg")?,
        hex_field("ctx")?,
        hex_field("mprime")?,
        hex_field("mu")?,
        hex_field("phm")?,
    );
    let ph = match v.get("ph") {
        None => None,
        Some(ph) => Some(ph.as_str().and_then(pre_hash).ok_or(Error::Inval)?),
    };
    match (msg, mprime, mu, ph, phm) {
        (None, None, None, Some(ph), Some(phm)) => {
            let ctx = ctx.unwrap_or_default();
            verify(
                p,
                &pk,
                &sig,
                Message::PreHash {
                    ph,
                    phm: &phm,
                    ctx: &ctx,
                },
            )
        }
        (Some(msg), None, None, None, None) => {
            let ctx = ctx.unwrap_or_default();
            verify(
                p,
                &pk,
                &sig,
                Message::Pure {
                    msg: &msg,
                    ctx: &ctx,
                },
            )
        }
        (None, Some(mprime), None, None, None) if ctx.is_none() => {
            verify(p, &pk, &sig, Message::Internal(&mprime))
        }
        (None, None, Some(mu), None, None) if ctx.is_none() => {
            let mu: &[u8; 64] = mu.as_slice().try_into().map_err(|_| Error::Inval)?;
            verify(p, &pk, &sig, Message::Mu(mu))
        }
        _ => Err(Error::Inval),
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().split(b'\n') {
        let Ok(line) = line else { break };
        let line = String::from_utf8_lossy(&line);
        if writeln!(out, "{}", errno_name(check(&line))).is_err() {
            return;
        }
    }
}
