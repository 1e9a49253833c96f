//! Assembles the module's arch routines (`arch/x86/*.S` with AVX2 on x86_64,
//! `arch/s390/*.S` with the vector facility on s390x: the very files the kernel builds) for
//! the host, with `include/` standing in for the kernel headers they use. On x86_64 it also
//! assembles the BMI2 Keccak-f[1600] that `tools/patches/7.3` adds to the kernel's SHA-3
//! library, taken from the patch, for the host SHAKE (`src/shake.rs`). It sets the cfg
//! that the kernel's Kconfig sets for the routines (`CONFIG_CRYPTO_MLDSA_AVX2`,
//! `CONFIG_CRYPTO_MLDSA_S390_VX`), so that the module's files choose them alike.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=include");
    // The kernel's Kconfig symbols that the module's files test; the last is never set here.
    for cfg in [
        "CONFIG_CRYPTO_MLDSA_AVX2",
        "CONFIG_CRYPTO_MLDSA_S390_VX",
        "CONFIG_CRYPTO_MLDSA_KUNIT_TEST",
    ] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    let (dir, flags, cfg): (_, &[&str], _) =
        match std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() {
            Ok("x86_64") => ("../../arch/x86", &[], "CONFIG_CRYPTO_MLDSA_AVX2"),
            Ok("s390x") => ("../../arch/s390", &["-march=z13"], "CONFIG_CRYPTO_MLDSA_S390_VX"),
            _ => return,
        };
    println!("cargo:rustc-cfg={cfg}");
    let dir = std::path::Path::new(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "S"))
        .collect();
    files.sort();
    if files.is_empty() {
        return;
    }
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    if dir.ends_with("x86") {
        files.push(file_from_patch(
            "../patches/7.3",
            "lib/crypto/x86/sha3-bmi2-x86_64.S",
        ));
    }
    let mut build = cc::Build::new();
    for f in flags {
        build.flag(f);
    }
    build.include("include").files(files).compile("mldsa_arch");
}

/// Writes the file `path` that one of the patches in `dir` creates into `OUT_DIR`, and
/// returns where.
fn file_from_patch(dir: &str, path: &str) -> std::path::PathBuf {
    println!("cargo:rerun-if-changed={dir}");
    let header = format!("+++ b/{path}\n");
    let mut patches: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    patches.sort();
    let text = patches
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|t| t.contains(&header))
        .unwrap_or_else(|| panic!("no patch in {dir} creates {path}"));
    let body = &text[text.find(&header).unwrap() + header.len()..];
    let mut out = String::new();
    for line in body.lines().skip_while(|l| l.starts_with("@@")) {
        match line.strip_prefix('+') {
            Some(l) => out.extend([l, "\n"]),
            None => break,
        }
    }
    let file = std::path::Path::new(&std::env::var("OUT_DIR").unwrap())
        .join(std::path::Path::new(path).file_name().unwrap());
    std::fs::write(&file, out).unwrap();
    file
}
