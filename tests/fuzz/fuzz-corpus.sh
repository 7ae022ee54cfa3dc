#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fuzz target's invariants over the seed corpus and every fixture,
# through the replay driver (no libFuzzer needed).
. "${top_srcdir:-.}/tests/lib/lib.sh"
expect_status 0 "${top_builddir:-.}/tests/fuzz/replay" "$top_srcdir"/tests/fuzz/corpus/* "$top_srcdir"/tests/data/*/in.h
expect_in "$WORK/out" "replayed"
expect_status 0 "${top_builddir:-.}/tests/fuzz/replay_install" "$top_srcdir"/tests/fuzz/corpus/* \
	"$top_srcdir"/tests/data/*/in.h "$top_srcdir"/tests/trees/mini/include/uapi/linux/*.h \
	"$top_srcdir"/tests/trees/faults/*.h
expect_in "$WORK/out" "replayed"
expect_status 0 "${top_builddir:-.}/tests/fuzz/replay_rpc" "$top_srcdir"/tests/fuzz/corpus-rpc/*
expect_in "$WORK/out" "replayed"
expect_status 0 "${top_builddir:-.}/tests/fuzz/replay_lsp" "$top_srcdir"/tests/fuzz/corpus-lsp/*
expect_in "$WORK/out" "replayed"
finish
