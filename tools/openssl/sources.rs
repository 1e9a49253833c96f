//! Nothing to build: the crate only names the OpenSSL sources (see Cargo.toml).
