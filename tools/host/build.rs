//! Assembles the module's x86_64 AVX2 routines (`arch/x86/*.S`, the very files the kernel
//! builds) for the host, with `include/` standing in for the kernel headers they use.

fn main() {
    println!("cargo:rerun-if-changed=include");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return;
    }
    let dir = std::path::Path::new("../../arch/x86");
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
    cc::Build::new()
        .include("include")
        .files(files)
        .compile("mldsa_avx2");
}
