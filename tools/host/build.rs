//! Assembles the module's arch routines (`arch/x86/*.S` with AVX2 on x86_64,
//! `arch/s390/*.S` with the vector facility on s390x: the very files the kernel builds) for
//! the host, with `include/` standing in for the kernel headers they use.

fn main() {
    println!("cargo:rerun-if-changed=include");
    let (dir, flags): (_, &[&str]) = match std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() {
        Ok("x86_64") => ("../../arch/x86", &[]),
        Ok("s390x") => ("../../arch/s390", &["-march=z13"]),
        _ => return,
    };
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
    let mut build = cc::Build::new();
    for f in flags {
        build.flag(f);
    }
    build.include("include").files(files).compile("mldsa_arch");
}
