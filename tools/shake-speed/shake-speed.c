// SPDX-License-Identifier: GPL-2.0
/*
 * SHAKE256 speed on this CPU, side by side in one process: Linux 7.3's SHA-3
 * library (lib/crypto/sha3.c) with the x86 arch code of tools/patches/7.3
 * (lib/crypto/x86/sha3.h, the BMI2 Keccak-f[1600]) and without it (the
 * generic C), both compiled for the host from the patched tree, and OpenSSL's
 * EVP SHAKE256 (its x86_64 Keccak assembly). Each hashes the same input of
 * SIZE bytes to 64 bytes (what ML-DSA's mu is); the outputs must agree.
 *
 * Prints "SHAKE256 cycles/byte, this CPU: kernel x86 N, OpenSSL N, generic C N"
 * in TSC cycles, the least of ROUNDS rounds, the three taking turns in each.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <x86intrin.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>

#define SIZE	16384
#define OUT	64
#define ROUNDS	400

void shake256_x86(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len);
void shake256_generic(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len);
int sha3_init_for_host_x86(void);

static void shake256_openssl(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_shake256(), NULL) ||
	    !EVP_DigestUpdate(ctx, in, in_len) || !EVP_DigestFinalXOF(ctx, out, out_len)) {
		fprintf(stderr, "shake-speed: OpenSSL's SHAKE256 failed\n");
		exit(1);
	}
	EVP_MD_CTX_free(ctx);
}

static const struct impl {
	const char *name;
	void (*shake256)(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len);
} impls[] = {
	{ "kernel x86", shake256_x86 },
	{ "OpenSSL", shake256_openssl },
	{ "generic C", shake256_generic },
};
#define NIMPLS (sizeof(impls) / sizeof(impls[0]))

int main(void)
{
	static uint8_t in[SIZE];
	uint8_t out[NIMPLS][OUT];
	uint64_t best[NIMPLS];

	sha3_init_for_host_x86();
	for (size_t i = 0; i < SIZE; i++)
		in[i] = (uint8_t)(i * 131 + 7);
	for (size_t j = 0; j < NIMPLS; j++)
		best[j] = UINT64_MAX;
	for (int r = 0; r < ROUNDS; r++) {
		for (size_t j = 0; j < NIMPLS; j++) {
			uint64_t t = __rdtsc();

			impls[j].shake256(in, SIZE, out[j], OUT);
			t = __rdtsc() - t;
			if (t < best[j])
				best[j] = t;
		}
	}
	for (size_t j = 1; j < NIMPLS; j++) {
		if (memcmp(out[0], out[j], OUT)) {
			fprintf(stderr, "shake-speed: %s and %s disagree\n", impls[0].name, impls[j].name);
			return 1;
		}
	}
	printf("SHAKE256 cycles/byte, this CPU:");
	for (size_t j = 0; j < NIMPLS; j++)
		printf("%s %s %.2f", j ? "," : "", impls[j].name, (double)best[j] / SIZE);
	printf(" (%d-byte input, %s)\n", SIZE, OPENSSL_FULL_VERSION_STR);
	return 0;
}
