// The allocator parley-core.wasm links (Embedded Swift calls posix_memalign and free; a
// freestanding wasm32 has no libc). Segregated free lists by power-of-two size class over a
// bump region that grows linear memory a page at a time: small, constant time, and memory
// freed by one call is reused by the next. Blocks carry a 16-byte header (class, free-list
// link), so every pointer handed out is 16-byte aligned.
#include <stddef.h>
#include <stdint.h>

extern unsigned char __heap_base;

#define HEADER 16
#define PAGE 65536
#define CLASSES 32
#define ENOMEM 12

static uintptr_t bump, limit;
static void *free_lists[CLASSES];

static int size_class(size_t size) {
    size_t total = size + HEADER;
    if (total < size) return CLASSES;
    int class = 5;
    while (class < CLASSES && ((size_t)1 << class) < total) class++;
    return class;
}

static void *grab(size_t bytes) {
    if (bump == 0) {
        bump = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
        limit = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
    }
    if (bytes > SIZE_MAX - bump) return 0;
    if (bump + bytes > limit) {
        size_t pages = (bump + bytes - limit + PAGE - 1) / PAGE;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
        limit += pages * PAGE;
    }
    void *block = (void *)bump;
    bump += bytes;
    return block;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment > HEADER) return ENOMEM;
    int class = size_class(size);
    if (class >= CLASSES) return ENOMEM;
    unsigned char *block = free_lists[class];
    if (block) {
        free_lists[class] = *(void **)(block + 8);
    } else {
        block = grab((size_t)1 << class);
        if (!block) return ENOMEM;
    }
    *(uint32_t *)block = (uint32_t)class;
    *out = block + HEADER;
    return 0;
}

void free(void *pointer) {
    if (!pointer) return;
    unsigned char *block = (unsigned char *)pointer - HEADER;
    uint32_t class = *(uint32_t *)block;
    *(void **)(block + 8) = free_lists[class];
    free_lists[class] = block;
}

void *malloc(size_t size) {
    void *pointer = 0;
    return posix_memalign(&pointer, HEADER, size) == 0 ? pointer : 0;
}
