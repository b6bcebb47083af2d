// The few C symbols Embedded Swift's wasm32 code calls that a freestanding module lacks
// (no libc, no compiler-rt builtins in the toolchain for this target).
#include <stddef.h>
#include <stdint.h>

int memcmp(const void *left, const void *right, size_t count) {
    const unsigned char *a = left, *b = right;
    for (size_t index = 0; index < count; index++) {
        if (a[index] != b[index]) return a[index] < b[index] ? -1 : 1;
    }
    return 0;
}

// Hasher's seed. The module has no entropy source, and none is needed: it holds no
// attacker-chosen hash tables across calls, and outputs never depend on hash order
// (canonical JSON sorts members). A fixed seed keeps runs reproducible.
void arc4random_buf(void *buffer, size_t count) {
    unsigned char *bytes = buffer;
    uint32_t state = 0x9E3779B9u;
    for (size_t index = 0; index < count; index++) {
        state = state * 1664525u + 1013904223u;
        bytes[index] = (unsigned char)(state >> 24);
    }
}

// 128-bit multiply (compiler-rt's __multi3): the low 128 bits of a × b, from 32-bit partial products.
typedef struct {
    uint64_t low, high;
} u128;

static u128 multiply64(uint64_t a, uint64_t b) {
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t middle = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    u128 result;
    result.low = (middle << 32) | (uint32_t)p00;
    result.high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
    return result;
}

// wasm32's C ABI passes __int128 as two i64 halves (low first) and returns it through a pointer.
void __multi3(u128 *result, uint64_t a_low, uint64_t a_high, uint64_t b_low, uint64_t b_high) {
    u128 product = multiply64(a_low, b_low);
    product.high += a_low * b_high + a_high * b_low;
    *result = product;
}
