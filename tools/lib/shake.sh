# SHAKE256 speed on this CPU (tools/shake-speed): the kernel's SHA-3 library
# with and without the x86 arch code of tools/patches/7.3, next to OpenSSL 4.0.
# shellcheck shell=bash

# tools/shake-speed built in $CACHE/shake-speed from the patched tree of the
# selected kernel (7.3: lib/crypto/sha3.c twice, with lib/crypto/x86/sha3.h
# and without, and the BMI2 assembly) and OpenSSL 4.0's static libcrypto.
_build_shake_speed() {
	local out=$CACHE/shake-speed dir=$REPO/tools/shake-speed cflags=(-O2 -Wall -Wno-unused-function -DCONFIG_64BIT)
	mkdir -p "$out" &&
		gcc "${cflags[@]}" -DCONFIG_CRYPTO_LIB_SHA3_ARCH -DSHA3_SUFFIX=_x86 -I"$dir/include" \
			-I"$KSRC/lib/crypto/x86" -I"$KSRC/include" -c "$KSRC/lib/crypto/sha3.c" -o "$out/sha3-x86.o" &&
		gcc "${cflags[@]}" -DSHA3_SUFFIX=_generic -I"$dir/include" -I"$KSRC/include" \
			-c "$KSRC/lib/crypto/sha3.c" -o "$out/sha3-generic.o" &&
		gcc -Wa,--noexecstack -I"$REPO/tools/host/include" -c "$KSRC/lib/crypto/x86/sha3-bmi2-x86_64.S" \
			-o "$out/sha3-bmi2.o" &&
		gcc -O2 -Wall -I"$CACHE/openssl-4.0/include" -c "$dir/shake-speed.c" -o "$out/shake-speed.o" &&
		gcc -o "$out/shake-speed" "$out"/*.o "$CACHE/openssl-4.0/lib/libcrypto.a" -lpthread
}

# Prints "SHAKE256 cycles/byte, this CPU: kernel x86 N, OpenSSL N, generic C N",
# kept in $LOGS/shake-speed.txt; on a CPU without BMI2 (which the x86 code
# needs) says so instead.
shake_speed() {
	phase "shake-speed: SHAKE256 on this CPU, kernel x86, OpenSSL 4.0, generic C (log: $LOGS/shake-speed-build.log)"
	if [ "$(uname -m)" != x86_64 ] || ! grep -qw bmi2 /proc/cpuinfo; then
		echo "SHAKE256 cycles/byte, this CPU: no x86_64 with BMI2, the kernel's x86 SHA-3 code cannot run here"
		return 0
	fi
	logged shake-speed-build _build_shake_speed || return 1
	"$CACHE/shake-speed/shake-speed" | tee "$LOGS/shake-speed.txt"
}
