//! mldsa-verify: checks signatures with exactly the code the kernel module runs.
//!
//! One JSON object a line on stdin, one answer a line on stdout: `ok`, `EKEYREJECTED`,
//! `EBADMSG` or `EINVAL`. Input lines look like
//! `{"alg":"ML-DSA-65","pk":HEX,"sig":HEX,"msg":HEX,"ctx":HEX}` (ctx optional), with
//! `"mprime":HEX` (Verify_internal) or `"mu":HEX` (external mu) in place of msg and ctx,
//! or `"ph":"SHA2-512","phm":HEX` (HashML-DSA, with PH(M); ctx optional) in place of msg.
//! The pre-hash names are ACVP's: SHA2-256, SHA2-384, SHA2-512, SHA3-256, SHA3-512,
//! SHAKE-128 and SHAKE-256.
//!
//! Each answer is written as soon as its line is read. A line that is not UTF-8, not one
//! JSON object, has a key twice or is longer than [`MAX_LINE`] bytes gets `EINVAL`; a long
//! line is skipped without being held in memory. A read or write error ends the run with
//! exit status 1.

use mldsa_host::mldsa_verify;
use mldsa_host::{errno_name, internal_mu, params, pre_hash, verify, Message};
use mldsa_verify::Error;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// The longest line taken, in bytes: a message of up to 2 MiB, in hex.
const MAX_LINE: usize = 4 << 20;

/// A JSON object with no key twice (serde_json would keep the last).
struct Object(Map<String, Value>);

impl<'de> Deserialize<'de> for Object {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = Object;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object with no key twice")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Object, A::Error> {
                let mut m = Map::new();
                while let Some((k, v)) = a.next_entry::<String, Value>()? {
                    if m.contains_key(&k) {
                        return Err(de::Error::custom(format!("key {k} twice")));
                    }
                    m.insert(k, v);
                }
                Ok(Object(m))
            }
        }
        d.deserialize_map(Keys)
    }
}

fn field(v: &Map<String, Value>, name: &str) -> Option<Vec<u8>> {
    hex::decode(v.get(name)?.as_str()?).ok()
}

fn check(line: &[u8]) -> Result<(), Error> {
    let line = std::str::from_utf8(line).map_err(|_| Error::BadParameter)?;
    let Object(v) = serde_json::from_str(line).map_err(|_| Error::BadParameter)?;
    let p = v
        .get("alg")
        .and_then(Value::as_str)
        .and_then(params)
        .ok_or(Error::BadParameter)?;
    let pk = field(&v, "pk").ok_or(Error::BadParameter)?;
    let sig = field(&v, "sig").ok_or(Error::BadParameter)?;
    let hex_field = |name| match v.get(name) {
        None => Ok(None),
        Some(_) => field(&v, name).map(Some).ok_or(Error::BadParameter),
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
        Some(ph) => Some(ph.as_str().and_then(pre_hash).ok_or(Error::BadParameter)?),
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
            verify(p, &pk, &sig, Message::Mu(&internal_mu(&pk, &mprime)))
        }
        (None, None, Some(mu), None, None) if ctx.is_none() => {
            let mu: &[u8; 64] = mu.as_slice().try_into().map_err(|_| Error::BadParameter)?;
            verify(p, &pk, &sig, Message::Mu(mu))
        }
        _ => Err(Error::BadParameter),
    }
}

/// Reads the next line, without its newline, into `buf`: `None` at the end of the input,
/// `Some(false)` if the line is longer than [`MAX_LINE`] (`buf` is then empty).
fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let (mut fits, mut any) = (true, false);
    loop {
        let avail = match r.fill_buf() {
            Ok(avail) => avail,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(any.then_some(fits));
        }
        any = true;
        let end = avail.iter().position(|&b| b == b'\n');
        let part = &avail[..end.unwrap_or(avail.len())];
        fits &= buf.len() + part.len() <= MAX_LINE;
        if fits {
            buf.extend_from_slice(part);
        } else {
            buf.clear();
        }
        let used = end.map_or(avail.len(), |e| e + 1);
        r.consume(used);
        if end.is_some() {
            return Ok(Some(fits));
        }
    }
}

fn main() -> ExitCode {
    let (mut stdin, mut stdout) = (io::stdin().lock(), io::stdout().lock());
    let mut line = Vec::new();
    loop {
        let answer = match read_line(&mut stdin, &mut line) {
            Ok(None) => return ExitCode::SUCCESS,
            Ok(Some(true)) => check(&line),
            Ok(Some(false)) => Err(Error::BadParameter),
            Err(e) => {
                eprintln!("mldsa-verify: reading stdin: {e}");
                return ExitCode::FAILURE;
            }
        };
        if let Err(e) = writeln!(stdout, "{}", errno_name(answer)).and_then(|()| stdout.flush()) {
            eprintln!("mldsa-verify: writing stdout: {e}");
            return ExitCode::FAILURE;
        }
    }
}
