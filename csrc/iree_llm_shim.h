/*
 * iree_llm_shim.h: the narrow C interface between iree-llm and the IREE C
 * runtime. This is the only header bindgen reads; it exposes no IREE types,
 * macros or inline helpers, only opaque handles and plain C values.
 *
 * Conventions:
 *  - Every fallible function returns an ill_error* (NULL on success). A
 *    non-NULL error owns a message with IREE's status text; free it with
 *    ill_error_free.
 *  - Out-parameters are written only on success.
 *  - Every handle returned through an out-parameter is owned by the caller and
 *    released with its matching *_release function.
 *  - A session is not thread-safe: use each session (and the buffers and
 *    functions created from it) from one thread at a time.
 */
#ifndef IREE_LLM_SHIM_H_
#define IREE_LLM_SHIM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ill_error ill_error;
typedef struct ill_instance ill_instance;
typedef struct ill_session ill_session;
typedef struct ill_buffer ill_buffer;
typedef struct ill_function ill_function;

/* Element types the shim moves between host and device. */
typedef enum ill_dtype {
  ILL_DTYPE_F32 = 0,
  ILL_DTYPE_F16 = 1,
  ILL_DTYPE_BF16 = 2,
  ILL_DTYPE_I32 = 3,
  ILL_DTYPE_I8 = 4, /* block-quantized weight values */
} ill_dtype;

/* Broad error classes, so callers can react without parsing text. */
typedef enum ill_error_kind {
  ILL_ERROR_OTHER = 0,
  ILL_ERROR_INVALID_ARGUMENT = 1, /* wrong input count, shape, dtype, size */
  ILL_ERROR_NOT_FOUND = 2,        /* missing file, unknown function or driver */
  ILL_ERROR_UNAVAILABLE = 3,      /* the driver exists but has no usable device */
  ILL_ERROR_OUT_OF_MEMORY = 4,
  ILL_ERROR_INCOMPATIBLE = 5,     /* module rejected: corrupt or wrong version */
  ILL_ERROR_UNSUPPORTED_TYPE = 6, /* a result's element type is not an ill_dtype */
} ill_error_kind;

/* ---- errors ------------------------------------------------------------- */
const char* ill_error_message(const ill_error* error);
ill_error_kind ill_error_get_kind(const ill_error* error);
void ill_error_free(ill_error* error);

/* The package version of the IREE runtime sources this shim was built
 * against (their iree/runtime/version.json, e.g. "3.13.0.dev"). */
const char* ill_runtime_version(void);

/* Number of shim handles of every kind (errors, instances, sessions,
 * functions, buffers) alive in this process; tests use it to prove that the
 * wrappers release everything they create. */
int64_t ill_live_handles(void);

/* ---- instance: the drivers compiled into this build --------------------- */
/* How long (microseconds) each local-task worker spins for more work before
 * it sleeps, for devices opened after this call (IREE's
 * --task_worker_spin_us; 0 sleeps at once). Process-wide. */
ill_error* ill_set_task_worker_spin_us(int32_t microseconds);
/* IREE runtime flags (e.g. "--cuda_use_streams=false"), separated by
 * spaces, for devices opened after this call. Process-wide; an unknown
 * flag is an error. */
ill_error* ill_set_runtime_flags(const char* flags);
/* Whether ill_call runs a call with the calling thread under SCHED_BATCH
 * (Linux; where the thread is under the default policy, which is restored
 * when the call returns). Process-wide; off until set. Why: a call ends in
 * IREE's semaphore wait, which, once woken, spins until the worker that
 * woke it has finished its callback. Where no core is idle the woken caller
 * lands on that worker's core and, under the default policy, preempts it,
 * spinning out its time slice; under SCHED_BATCH a waking thread does not
 * preempt. Elsewhere it does nothing. */
void ill_set_batch_calls(int on);
/* Asks Linux for the AMX tile state (arch_prctl(ARCH_REQ_XCOMP_PERM,
 * XTILEDATA)) for the whole process; returns 1 once granted, 0 where the
 * CPU, the kernel or the build has none. Why: kernels built for AMX fault
 * with SIGILL in a process that never asked. Idempotent and cheap. */
int ill_request_cpu_tiles(void);
ill_error* ill_instance_create(ill_instance** out_instance);
void ill_instance_release(ill_instance* instance);
/* Number of drivers compiled in, and the name of driver |index|
 * (the string lives as long as the instance). */
size_t ill_instance_driver_count(const ill_instance* instance);
const char* ill_instance_driver_name(const ill_instance* instance, size_t index);
/* Lists the devices a driver can see now as "path\tname" lines in a buffer
 * owned by the caller (free with ill_string_free). */
ill_error* ill_instance_query_devices(ill_instance* instance, const char* driver,
                                      char** out_lines);
void ill_string_free(char* str);

/* ---- session: one device, its loaded modules ---------------------------- */
/* |device_uri| is an IREE device URI: "local-task", "local-sync", "cuda",
 * "cuda://0", "metal", ... */
ill_error* ill_session_create(ill_instance* instance, const char* device_uri,
                              ill_session** out_session);
void ill_session_release(ill_session* session);
/* Loads a compiled .vmfb file into the session. */
ill_error* ill_session_load_module(ill_session* session, const char* path);
/* Resolves "module.function" for later calls. */
ill_error* ill_session_lookup(ill_session* session, const char* full_name,
                              ill_function** out_function);
void ill_function_release(ill_function* function);
/* Number of results, from the function's calling convention. */
size_t ill_function_result_count(const ill_function* function);

/* ---- buffers: dense row-major device-resident tensors ------------------- */
/* Copies |byte_length| bytes of host data into a new device buffer. The size
 * must equal the product of |shape| times the element size. */
ill_error* ill_buffer_upload(ill_session* session, ill_dtype dtype,
                             const int64_t* shape, size_t rank,
                             const void* data, size_t byte_length,
                             ill_buffer** out_buffer);
/* A new device buffer filled with zero bytes. */
ill_error* ill_buffer_zeros(ill_session* session, ill_dtype dtype,
                            const int64_t* shape, size_t rank,
                            ill_buffer** out_buffer);
void ill_buffer_release(ill_buffer* buffer);
ill_dtype ill_buffer_dtype(const ill_buffer* buffer);
size_t ill_buffer_rank(const ill_buffer* buffer);
int64_t ill_buffer_dim(const ill_buffer* buffer, size_t index);
size_t ill_buffer_byte_length(const ill_buffer* buffer);
/* Identity of the device allocation behind the buffer: two buffers with the
 * same id share storage (used to prove in-place updates). */
uint64_t ill_buffer_storage_id(const ill_buffer* buffer);
/* Copies |byte_length| bytes starting at |byte_offset| to host memory. */
ill_error* ill_buffer_read(ill_session* session, const ill_buffer* buffer,
                           size_t byte_offset, void* target, size_t byte_length);
/* Overwrites |byte_length| bytes at |byte_offset| from host memory. */
ill_error* ill_buffer_write(ill_session* session, ill_buffer* buffer,
                            size_t byte_offset, const void* source,
                            size_t byte_length);

/* Copies |byte_length| bytes at |source_offset| of |source| to
 * |target_offset| of |target| on the device (never through the host). Both
 * must hold the same element type and the ranges must lie inside them; within
 * one buffer the ranges must not overlap (the same range does nothing). */
ill_error* ill_buffer_copy(ill_session* session, const ill_buffer* source,
                           size_t source_offset, ill_buffer* target,
                           size_t target_offset, size_t byte_length);

/* ---- calls -------------------------------------------------------------- */
/* Calls |function| synchronously with |inputs| (retained only for the call)
 * and stores exactly |output_count| new buffers in |outputs|; fails if the
 * function takes a different number of arguments or returns a different
 * number of results, or if a result's element type is not an ill_dtype
 * (ILL_ERROR_UNSUPPORTED_TYPE). Outputs stay on the device; read them with
 * ill_buffer_read or pass them to the next call. */
ill_error* ill_call(ill_session* session, const ill_function* function,
                    ill_buffer* const* inputs, size_t input_count,
                    ill_buffer** outputs, size_t output_count);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // IREE_LLM_SHIM_H_
