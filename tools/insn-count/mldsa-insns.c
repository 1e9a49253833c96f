// SPDX-License-Identifier: GPL-2.0
/*
 * mldsa-insns: a QEMU TCG plugin that counts the guest instructions a vCPU
 * executes between a start and a stop marker, for the in-kernel instruction
 * counts of ./tools/test perf (tools/lib/insn.sh). The markers are no-ops
 * that the KUnit case count_instructions places around each verification:
 *
 *   x86_64  start: nopl 0x5344NNNN(%rax)   0f 1f 80 NN NN 44 53
 *           stop:  nopl 0x53450000(%rax)   0f 1f 80 00 00 45 53
 *   s390x   start: brcl 0,0x5344NNNN       c0 04 53 44 NN NN
 *           stop:  brcl 0,0x53450000       c0 04 53 45 00 00
 *
 * NNNN is the interval's label. Neither marker is counted; every instruction
 * the vCPU executes in between is, in callees and interrupt handlers too (the
 * host side takes the least of the intervals of a label, and runs the guest
 * with one vCPU and -icount, so that the boot is the same each time). At exit
 * it writes "LABEL COUNT" a line, in order, to the file given as out=PATH.
 *
 * With enter=ADDR,leave=ADDR (hexadecimal guest addresses), the instruction
 * at enter starts an interval labelled SPAN_LABEL (0xffff), and is counted,
 * and the one at leave stops it: with enter a kernel function's first
 * instruction and leave the one after its call, the function from its start
 * to its return, for code that has no markers (the kernel is booted without
 * KASLR, so that its addresses are those of System.map).
 *
 * Built against include/qemu/qemu-plugin.h of Debian's qemu source package,
 * the QEMU that runs the guest (7.2, plugin API version 1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS 64
#define MAX_INTERVALS 65536

#define SPAN_LABEL 0xffff

enum marker { NONE, START, STOP };

static struct vcpu {
	int on;
	uint16_t label;
	uint64_t n;
} vcpus[MAX_VCPUS];

static struct {
	uint16_t label;
	uint64_t n;
} intervals[MAX_INTERVALS];
static unsigned int n_intervals;
static char *out_path;
static uint64_t span_enter, span_leave;

/* Whether the instruction is a marker, and its label. */
static enum marker marker(const struct qemu_plugin_insn *insn, uint16_t *label)
{
	static const uint8_t x86[] = { 0x0f, 0x1f, 0x80 }, s390[] = { 0xc0, 0x04, 0x53 };
	const uint8_t *b = qemu_plugin_insn_data(insn);
	size_t len = qemu_plugin_insn_size(insn);
	uint64_t vaddr = qemu_plugin_insn_vaddr(insn);

	if (span_enter && vaddr == span_enter) {
		*label = SPAN_LABEL;
		return START;
	}
	if (span_leave && vaddr == span_leave)
		return STOP;
	if (len == 7 && !memcmp(b, x86, 3) && b[6] == 0x53 && (b[5] & ~1) == 0x44) {
		*label = b[3] | b[4] << 8;
		return b[5] == 0x44 ? START : STOP;
	}
	if (len == 6 && !memcmp(b, s390, 3) && (b[3] & ~1) == 0x44) {
		*label = b[4] << 8 | b[5];
		return b[3] == 0x44 ? START : STOP;
	}
	return NONE;
}

static void tb_exec(unsigned int vcpu, void *n_insns)
{
	if (vcpus[vcpu].on)
		vcpus[vcpu].n += (uintptr_t)n_insns;
}

static void insn_exec(unsigned int vcpu, void *unused)
{
	if (vcpus[vcpu].on)
		vcpus[vcpu].n++;
}

static void start_exec(unsigned int vcpu, void *label)
{
	vcpus[vcpu].on = 1;
	vcpus[vcpu].n = 0;
	vcpus[vcpu].label = (uintptr_t)label;
}

/* The span's first instruction, which is counted. */
static void enter_exec(unsigned int vcpu, void *unused)
{
	start_exec(vcpu, (void *)(uintptr_t)SPAN_LABEL);
	vcpus[vcpu].n = 1;
}

static void stop_exec(unsigned int vcpu, void *unused)
{
	unsigned int i;

	if (!vcpus[vcpu].on)
		return;
	vcpus[vcpu].on = 0;
	i = __atomic_fetch_add(&n_intervals, 1, __ATOMIC_RELAXED);
	if (i < MAX_INTERVALS) {
		intervals[i].label = vcpus[vcpu].label;
		intervals[i].n = vcpus[vcpu].n;
	}
}

/*
 * A translation block without a marker is counted whole as it starts (the
 * measured code takes no exception); one with a marker, insn by insn.
 */
static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uint16_t label;
	int any = 0;

	for (i = 0; i < n; i++)
		any |= marker(qemu_plugin_tb_get_insn(tb, i), &label) != NONE;
	if (!any) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)n);
		return;
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		switch (marker(insn, &label)) {
		case START:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, label == SPAN_LABEL ?
							       enter_exec : start_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)label);
			break;
		case STOP:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, stop_exec,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
			break;
		default:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		}
	}
}

static void at_exit(qemu_plugin_id_t id, void *unused)
{
	FILE *f = fopen(out_path, "w");
	unsigned int i, n = n_intervals < MAX_INTERVALS ? n_intervals : MAX_INTERVALS;

	if (!f)
		return;
	for (i = 0; i < n; i++)
		fprintf(f, "%u %" PRIu64 "\n", intervals[i].label, intervals[i].n);
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
		else if (!strncmp(argv[i], "enter=", 6))
			span_enter = strtoull(argv[i] + 6, NULL, 16);
		else if (!strncmp(argv[i], "leave=", 6))
			span_leave = strtoull(argv[i] + 6, NULL, 16);
		else
			break;
	}
	if (i < argc || !out_path || !span_enter != !span_leave ||
	    info->system.max_vcpus > MAX_VCPUS) {
		fprintf(stderr, "mldsa-insns: usage: -plugin %s (at most %d vCPUs)\n",
			"mldsa-insns.so,out=PATH[,enter=ADDR,leave=ADDR]", MAX_VCPUS);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
