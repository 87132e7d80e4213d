/*
 * iree_llm_shim.c: implementation of iree_llm_shim.h over the IREE C runtime
 * (iree/runtime/api.h). Each function does one thing; every IREE status is
 * turned into an ill_error carrying IREE's own text, and every path releases
 * what it acquired.
 */
/* SCHED_BATCH (glibc defines it only with this, before any header). */
#define _GNU_SOURCE
#include "iree_llm_shim.h"

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "iree/async/util/proactor_pool.h"
#include "iree/base/threading/numa.h"
#include "iree/base/tooling/flags.h"
#include "iree/runtime/api.h"

/* build.rs (and scripts/leakcheck.sh) define this from the "package-version"
 * of the IREE runtime sources being compiled (iree/runtime/version.json); the
 * runtime's C API has no version query of its own. */
#ifndef ILL_RUNTIME_VERSION
#error "ILL_RUNTIME_VERSION must be defined to the IREE runtime's package version"
#endif

/* Live handle count across all kinds; see ill_live_handles. */
static int64_t ill_live = 0;
static void ill_live_add(int64_t delta) {
  __atomic_add_fetch(&ill_live, delta, __ATOMIC_RELAXED);
}
int64_t ill_live_handles(void) {
  return __atomic_load_n(&ill_live, __ATOMIC_RELAXED);
}

/* ---- errors ------------------------------------------------------------- */

struct ill_error {
  ill_error_kind kind;
  char* message;
};

static ill_error* ill_error_new(ill_error_kind kind, const char* text) {
  ill_error* error = (ill_error*)malloc(sizeof(*error));
  if (!error) abort(); /* nothing sensible can be reported without memory */
  error->kind = kind;
  error->message = strdup(text ? text : "(no message)");
  if (!error->message) abort();
  ill_live_add(1);
  return error;
}

static ill_error* ill_error_printf(ill_error_kind kind, const char* format,
                                   ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  return ill_error_new(kind, text);
}

static ill_error_kind ill_kind_from_code(iree_status_code_t code) {
  switch (code) {
    case IREE_STATUS_INVALID_ARGUMENT:
    case IREE_STATUS_OUT_OF_RANGE:
      return ILL_ERROR_INVALID_ARGUMENT;
    case IREE_STATUS_NOT_FOUND:
      return ILL_ERROR_NOT_FOUND;
    case IREE_STATUS_UNAVAILABLE:
      return ILL_ERROR_UNAVAILABLE;
    case IREE_STATUS_RESOURCE_EXHAUSTED:
      return ILL_ERROR_OUT_OF_MEMORY;
    default:
      return ILL_ERROR_OTHER;
  }
}

/* Consumes |status| (frees it) and returns an error with |context| followed
 * by IREE's full status text, or NULL if the status is OK. */
static ill_error* ill_from_status(iree_status_t status, const char* context) {
  if (iree_status_is_ok(status)) return NULL;
  ill_error_kind kind = ill_kind_from_code(iree_status_code(status));
  char* text = NULL;
  iree_host_size_t length = 0;
  iree_allocator_t allocator = iree_allocator_system();
  if (!iree_status_to_string(status, &allocator, &text, &length)) {
    text = NULL;
  }
  size_t size = strlen(context) + 2 + (text ? length : 24) + 1;
  char* joined = (char*)malloc(size);
  if (!joined) abort();
  snprintf(joined, size, "%s: %s", context,
           text ? text : "(unprintable IREE status)");
  if (text) iree_allocator_free(allocator, text);
  iree_status_free(status);
  ill_error* error = ill_error_new(kind, joined);
  free(joined);
  return error;
}

const char* ill_error_message(const ill_error* error) {
  return error->message;
}

ill_error_kind ill_error_get_kind(const ill_error* error) {
  return error->kind;
}

void ill_error_free(ill_error* error) {
  if (!error) return;
  free(error->message);
  free(error);
  ill_live_add(-1);
}

const char* ill_runtime_version(void) { return ILL_RUNTIME_VERSION; }

void ill_string_free(char* str) { free(str); }

/* ---- dtypes ------------------------------------------------------------- */

static int ill_dtype_to_iree(ill_dtype dtype, iree_hal_element_type_t* out) {
  switch (dtype) {
    case ILL_DTYPE_F32:
      *out = IREE_HAL_ELEMENT_TYPE_FLOAT_32;
      return 1;
    case ILL_DTYPE_F16:
      *out = IREE_HAL_ELEMENT_TYPE_FLOAT_16;
      return 1;
    case ILL_DTYPE_BF16:
      *out = IREE_HAL_ELEMENT_TYPE_BFLOAT_16;
      return 1;
    case ILL_DTYPE_I32:
      *out = IREE_HAL_ELEMENT_TYPE_INT_32;
      return 1;
    case ILL_DTYPE_I8:
      *out = IREE_HAL_ELEMENT_TYPE_INT_8;
      return 1;
  }
  return 0;
}

/* Maps a device element type to the shim's; returns 0 for any type the shim
 * does not move, so that no buffer is ever read back under a wrong type. */
static int ill_dtype_from_iree(iree_hal_element_type_t type, ill_dtype* out) {
  switch (type) {
    case IREE_HAL_ELEMENT_TYPE_FLOAT_32:
      *out = ILL_DTYPE_F32;
      return 1;
    case IREE_HAL_ELEMENT_TYPE_FLOAT_16:
      *out = ILL_DTYPE_F16;
      return 1;
    case IREE_HAL_ELEMENT_TYPE_BFLOAT_16:
      *out = ILL_DTYPE_BF16;
      return 1;
    /* Signless and signed 32-bit integers share i32's host representation. */
    case IREE_HAL_ELEMENT_TYPE_INT_32:
    case IREE_HAL_ELEMENT_TYPE_SINT_32:
      *out = ILL_DTYPE_I32;
      return 1;
    case IREE_HAL_ELEMENT_TYPE_INT_8:
    case IREE_HAL_ELEMENT_TYPE_SINT_8:
      *out = ILL_DTYPE_I8;
      return 1;
    default:
      return 0;
  }
}

static size_t ill_dtype_size(ill_dtype dtype) {
  switch (dtype) {
    case ILL_DTYPE_F32:
    case ILL_DTYPE_I32:
      return 4;
    case ILL_DTYPE_I8:
      return 1;
    default:
      return 2;
  }
}

/* ---- instance ----------------------------------------------------------- */

struct ill_instance {
  iree_runtime_instance_t* runtime;
  iree_host_size_t driver_count;
  char** driver_names;
};

ill_error* ill_set_task_worker_spin_us(int32_t microseconds) {
  if (microseconds < 0) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "worker spin of %d us: must be 0 or more", (int)microseconds);
  }
  /* The task executor reads this flag when a local-task device is created;
   * IREE's flag parser is the only way to set it through the default
   * device factory. */
  char flag[64];
  snprintf(flag, sizeof(flag), "--task_worker_spin_us=%d", (int)microseconds);
  char program[] = "iree-llm";
  char* argv[] = {program, flag, NULL};
  char** args = argv;
  int argc = 2;
  return ill_from_status(iree_flags_parse(IREE_FLAGS_PARSE_MODE_DEFAULT, &argc, &args),
                         "setting the task workers' spin time");
}

ill_error* ill_set_runtime_flags(const char* flags) {
  /* iree_flags_parse takes argv; split a copy of the line in place. */
  char* line = strdup(flags ? flags : "");
  if (!line) abort();
  char* argv[65];
  char program[] = "iree-llm";
  int argc = 0;
  argv[argc++] = program;
  for (char* tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
    if (argc == 64) {
      free(line);
      return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                              "more than 63 runtime flags");
    }
    argv[argc++] = tok;
  }
  argv[argc] = NULL;
  char** args = argv;
  ill_error* error = ill_from_status(
      iree_flags_parse(IREE_FLAGS_PARSE_MODE_DEFAULT, &argc, &args),
      "setting IREE runtime flags");
  free(line);
  return error;
}

static int ill_batch_calls = 0;
void ill_set_batch_calls(int on) {
  __atomic_store_n(&ill_batch_calls, on ? 1 : 0, __ATOMIC_RELAXED);
}

int ill_request_cpu_tiles(void) {
#if defined(__linux__) && defined(__x86_64__)
  /* From the kernel's uapi asm/prctl.h and the XSAVE feature numbers. */
  const long arch_req_xcomp_perm = 0x1023, arch_get_xcomp_perm = 0x1022;
  const unsigned long xfeature_xtiledata = 18;
  if (syscall(SYS_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata) != 0) return 0;
  unsigned long permitted = 0;
  if (syscall(SYS_arch_prctl, arch_get_xcomp_perm, &permitted) != 0) return 0;
  return (permitted >> xfeature_xtiledata) & 1;
#else
  return 0;
#endif
}

/* Puts the calling thread under SCHED_BATCH if batch calls are on and it is
 * under the default policy; returns whether it did (see ill_set_batch_calls). */
static int ill_batch_call_begin(void) {
#ifdef SCHED_BATCH
  if (!__atomic_load_n(&ill_batch_calls, __ATOMIC_RELAXED)) return 0;
  int policy = 0;
  struct sched_param param;
  if (pthread_getschedparam(pthread_self(), &policy, &param) != 0 || policy != SCHED_OTHER) {
    return 0;
  }
  param.sched_priority = 0;
  return pthread_setschedparam(pthread_self(), SCHED_BATCH, &param) == 0;
#else
  return 0;
#endif
}

static void ill_batch_call_end(int began) {
#ifdef SCHED_BATCH
  if (!began) return;
  struct sched_param param = {0};
  /* Back from SCHED_BATCH to the default policy at the same nice value:
   * always permitted. */
  (void)pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
#else
  (void)began;
#endif
}

ill_error* ill_instance_create(ill_instance** out_instance) {
  iree_runtime_instance_options_t options;
  iree_runtime_instance_options_initialize(&options);
  iree_runtime_instance_options_use_all_available_drivers(&options);
  iree_runtime_instance_t* runtime = NULL;
  ill_error* error = ill_from_status(
      iree_runtime_instance_create(&options, iree_allocator_system(), &runtime),
      "creating the IREE runtime instance");
  if (error) return error;

  ill_instance* instance = (ill_instance*)calloc(1, sizeof(*instance));
  if (!instance) abort();
  instance->runtime = runtime;
  ill_live_add(1);

  /* Snapshot the driver names once: they are fixed by the build. */
  iree_allocator_t allocator = iree_runtime_instance_host_allocator(runtime);
  iree_host_size_t count = 0;
  iree_hal_driver_info_t* infos = NULL;
  error = ill_from_status(
      iree_hal_driver_registry_enumerate(
          iree_runtime_instance_driver_registry(runtime), allocator, &count,
          &infos),
      "enumerating HAL drivers");
  if (error) {
    ill_instance_release(instance);
    return error;
  }
  instance->driver_names = (char**)calloc(count ? count : 1, sizeof(char*));
  if (!instance->driver_names) abort();
  for (iree_host_size_t i = 0; i < count; ++i) {
    iree_string_view_t name = infos[i].driver_name;
    instance->driver_names[i] = strndup(name.data, name.size);
    if (!instance->driver_names[i]) abort();
  }
  instance->driver_count = count;
  iree_allocator_free(allocator, infos);
  *out_instance = instance;
  return NULL;
}

void ill_instance_release(ill_instance* instance) {
  if (!instance) return;
  for (iree_host_size_t i = 0; i < instance->driver_count; ++i) {
    free(instance->driver_names[i]);
  }
  free(instance->driver_names);
  iree_runtime_instance_release(instance->runtime);
  free(instance);
  ill_live_add(-1);
}

size_t ill_instance_driver_count(const ill_instance* instance) {
  return instance->driver_count;
}

const char* ill_instance_driver_name(const ill_instance* instance,
                                     size_t index) {
  return index < instance->driver_count ? instance->driver_names[index] : NULL;
}

ill_error* ill_instance_query_devices(ill_instance* instance,
                                      const char* driver_name,
                                      char** out_lines) {
  iree_allocator_t allocator =
      iree_runtime_instance_host_allocator(instance->runtime);
  iree_hal_driver_t* driver = NULL;
  char context[256];
  snprintf(context, sizeof(context), "creating HAL driver '%s'", driver_name);
  ill_error* error = ill_from_status(
      iree_hal_driver_registry_try_create(
          iree_runtime_instance_driver_registry(instance->runtime),
          iree_make_cstring_view(driver_name), allocator, &driver),
      context);
  if (error) return error;

  iree_host_size_t count = 0;
  iree_hal_device_info_t* infos = NULL;
  snprintf(context, sizeof(context), "querying devices of driver '%s'",
           driver_name);
  error = ill_from_status(iree_hal_driver_query_available_devices(
                              driver, allocator, &count, &infos),
                          context);
  if (!error) {
    size_t size = 1;
    for (iree_host_size_t i = 0; i < count; ++i) {
      size += infos[i].path.size + infos[i].name.size + 2;
    }
    char* lines = (char*)malloc(size);
    if (!lines) abort();
    size_t at = 0;
    for (iree_host_size_t i = 0; i < count; ++i) {
      at += (size_t)snprintf(lines + at, size - at, "%.*s\t%.*s\n",
                             (int)infos[i].path.size, infos[i].path.data,
                             (int)infos[i].name.size, infos[i].name.data);
    }
    lines[at] = 0;
    *out_lines = lines;
  }
  iree_allocator_free(allocator, infos);
  iree_hal_driver_release(driver);
  return error;
}

/* ---- session ------------------------------------------------------------ */

struct ill_session {
  iree_runtime_session_t* runtime_session;
  iree_hal_device_t* device;              /* borrowed from the session */
  iree_hal_allocator_t* device_allocator; /* borrowed from the session */
  /* Host-visible memory that reads from device-only buffers pass through,
   * kept between reads: IREE's own d2h allocates and frees pinned host
   * memory on every call, which cost about 1.2 ms a read on an H100 machine
   * whatever the size (docs/performance.md). */
  iree_hal_buffer_t* staging;
  iree_device_size_t staging_size;
};

/* Larger reads go through IREE's own path rather than keep that much
 * pinned host memory for the session's life. */
#define ILL_STAGING_MAX ((iree_device_size_t)64 << 20)

static ill_error* ill_create_device(ill_instance* instance,
                                    const char* device_uri,
                                    iree_hal_device_t** out_device) {
  iree_allocator_t allocator =
      iree_runtime_instance_host_allocator(instance->runtime);
  iree_async_proactor_pool_t* proactor_pool = NULL;
  iree_status_t status = iree_async_proactor_pool_create(
      iree_numa_node_count(), /*node_ids=*/NULL,
      iree_async_proactor_pool_options_default(), allocator, &proactor_pool);
  if (iree_status_is_ok(status)) {
    iree_hal_device_create_params_t params =
        iree_hal_device_create_params_default();
    params.proactor_pool = proactor_pool;
    status = iree_hal_create_device(
        iree_runtime_instance_driver_registry(instance->runtime),
        iree_make_cstring_view(device_uri), &params, allocator, out_device);
  }
  /* The device retains the pool it uses. */
  iree_async_proactor_pool_release(proactor_pool);
  char context[512];
  snprintf(context, sizeof(context), "opening device '%s'", device_uri);
  return ill_from_status(status, context);
}

ill_error* ill_session_create(ill_instance* instance, const char* device_uri,
                              ill_session** out_session) {
  iree_hal_device_t* device = NULL;
  ill_error* error = ill_create_device(instance, device_uri, &device);
  if (error) return error;

  iree_runtime_session_options_t options;
  iree_runtime_session_options_initialize(&options);
  iree_runtime_session_t* runtime_session = NULL;
  error = ill_from_status(
      iree_runtime_session_create_with_device(
          instance->runtime, &options, device,
          iree_runtime_instance_host_allocator(instance->runtime),
          &runtime_session),
      "creating a runtime session");
  iree_hal_device_release(device); /* the session keeps its own reference */
  if (error) return error;

  ill_session* session = (ill_session*)calloc(1, sizeof(*session));
  if (!session) abort();
  session->runtime_session = runtime_session;
  session->device = iree_runtime_session_device(runtime_session);
  session->device_allocator =
      iree_runtime_session_device_allocator(runtime_session);
  ill_live_add(1);
  *out_session = session;
  return NULL;
}

void ill_session_release(ill_session* session) {
  if (!session) return;
  iree_hal_buffer_release(session->staging);
  iree_runtime_session_release(session->runtime_session);
  free(session);
  ill_live_add(-1);
}

ill_error* ill_session_load_module(ill_session* session, const char* path) {
  FILE* probe = fopen(path, "rb");
  if (!probe) {
    return ill_error_printf(ILL_ERROR_NOT_FOUND,
                            "loading module '%s': cannot open the file", path);
  }
  fclose(probe);
  char context[1024];
  snprintf(context, sizeof(context), "loading module '%s'", path);
  iree_status_t status = iree_runtime_session_append_bytecode_module_from_file(
      session->runtime_session, path);
  if (iree_status_is_ok(status)) return NULL;
  /* Anything the loader rejects other than a missing file or exhausted
   * memory means the bytes are not a module this runtime can run: corrupt,
   * truncated, or written by a different compiler release. */
  iree_status_code_t code = iree_status_code(status);
  ill_error* error = ill_from_status(status, context);
  if (code != IREE_STATUS_NOT_FOUND && code != IREE_STATUS_RESOURCE_EXHAUSTED) {
    error->kind = ILL_ERROR_INCOMPATIBLE;
  }
  return error;
}

/* ---- functions ---------------------------------------------------------- */

struct ill_function {
  iree_vm_function_t function;
  size_t arg_count;
  size_t result_count;
};

/* Counts the entries of a cconv fragment ("rrr", "" or "v"). */
static size_t ill_count_cconv(iree_string_view_t fragment) {
  if (fragment.size == 1 && fragment.data[0] == 'v') return 0;
  return fragment.size;
}

ill_error* ill_session_lookup(ill_session* session, const char* full_name,
                              ill_function** out_function) {
  iree_vm_function_t function;
  char context[512];
  snprintf(context, sizeof(context), "looking up function '%s'", full_name);
  ill_error* error =
      ill_from_status(iree_runtime_session_lookup_function(
                          session->runtime_session,
                          iree_make_cstring_view(full_name), &function),
                      context);
  if (error) {
    error->kind = ILL_ERROR_NOT_FOUND;
    return error;
  }
  iree_vm_function_signature_t signature =
      iree_vm_function_signature(&function);
  iree_string_view_t args = iree_string_view_empty();
  iree_string_view_t results = iree_string_view_empty();
  error = ill_from_status(
      iree_vm_function_call_get_cconv_fragments(&signature, &args, &results),
      context);
  if (error) return error;
  ill_function* handle = (ill_function*)calloc(1, sizeof(*handle));
  if (!handle) abort();
  handle->function = function;
  handle->arg_count = ill_count_cconv(args);
  handle->result_count = ill_count_cconv(results);
  ill_live_add(1);
  *out_function = handle;
  return NULL;
}

void ill_function_release(ill_function* function) {
  if (!function) return;
  free(function);
  ill_live_add(-1);
}

size_t ill_function_result_count(const ill_function* function) {
  return function->result_count;
}

/* ---- buffers ------------------------------------------------------------ */

struct ill_buffer {
  iree_hal_buffer_view_t* view;
  ill_dtype dtype; /* the view's element type, one the shim supports */
};

static ill_buffer* ill_buffer_wrap(iree_hal_buffer_view_t* view,
                                   ill_dtype dtype) {
  ill_buffer* buffer = (ill_buffer*)malloc(sizeof(*buffer));
  if (!buffer) abort();
  buffer->view = view;
  buffer->dtype = dtype;
  ill_live_add(1);
  return buffer;
}

static iree_hal_buffer_params_t ill_device_buffer_params(void) {
  iree_hal_buffer_params_t params;
  memset(&params, 0, sizeof(params));
  params.type = IREE_HAL_MEMORY_TYPE_DEVICE_LOCAL;
  params.access = IREE_HAL_MEMORY_ACCESS_ALL;
  params.usage = IREE_HAL_BUFFER_USAGE_DEFAULT;
  return params;
}

/* Validates dtype and shape and returns the dense byte size. */
static ill_error* ill_check_shape(ill_dtype dtype, const int64_t* shape,
                                  size_t rank, iree_hal_element_type_t* type,
                                  iree_hal_dim_t* dims, size_t* byte_size) {
  if (!ill_dtype_to_iree(dtype, type)) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "unsupported element type code %d", (int)dtype);
  }
  if (rank > 8) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "rank %zu is larger than the supported 8", rank);
  }
  size_t elements = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (shape[i] < 0) {
      return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                              "dimension %zu is negative (%lld)", i,
                              (long long)shape[i]);
    }
    dims[i] = (iree_hal_dim_t)shape[i];
    elements *= (size_t)shape[i];
  }
  *byte_size = elements * ill_dtype_size(dtype);
  return NULL;
}

ill_error* ill_buffer_upload(ill_session* session, ill_dtype dtype,
                             const int64_t* shape, size_t rank,
                             const void* data, size_t byte_length,
                             ill_buffer** out_buffer) {
  iree_hal_element_type_t type;
  iree_hal_dim_t dims[8];
  size_t expected = 0;
  ill_error* error =
      ill_check_shape(dtype, shape, rank, &type, dims, &expected);
  if (error) return error;
  if (expected != byte_length) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "upload of %zu bytes does not match its shape, "
                            "which needs %zu bytes",
                            byte_length, expected);
  }
  iree_hal_buffer_view_t* view = NULL;
  error = ill_from_status(
      iree_hal_buffer_view_allocate_buffer_copy(
          session->device, session->device_allocator, rank, dims, type,
          IREE_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR, ill_device_buffer_params(),
          iree_make_const_byte_span(data, byte_length), &view),
      "uploading a host array to the device");
  if (error) return error;
  *out_buffer = ill_buffer_wrap(view, dtype);
  return NULL;
}

ill_error* ill_buffer_zeros(ill_session* session, ill_dtype dtype,
                            const int64_t* shape, size_t rank,
                            ill_buffer** out_buffer) {
  iree_hal_element_type_t type;
  iree_hal_dim_t dims[8];
  size_t byte_size = 0;
  ill_error* error =
      ill_check_shape(dtype, shape, rank, &type, dims, &byte_size);
  if (error) return error;

  iree_hal_buffer_t* storage = NULL;
  error = ill_from_status(
      iree_hal_allocator_allocate_buffer(session->device_allocator,
                                         ill_device_buffer_params(), byte_size,
                                         &storage),
      "allocating a device buffer");
  if (error) return error;

  /* Zero through bounded host staging: device memory may not be mappable. */
  const size_t chunk = (size_t)8 << 20;
  size_t staging = byte_size < chunk ? byte_size : chunk;
  void* zeros = calloc(1, staging ? staging : 1);
  if (!zeros) abort();
  iree_status_t status = iree_ok_status();
  for (size_t offset = 0; offset < byte_size && iree_status_is_ok(status);
       offset += chunk) {
    size_t length = byte_size - offset < chunk ? byte_size - offset : chunk;
    status = iree_hal_device_transfer_h2d(
        session->device, zeros, storage, offset, length,
        IREE_HAL_TRANSFER_BUFFER_FLAG_DEFAULT, iree_infinite_timeout());
  }
  free(zeros);
  iree_hal_buffer_view_t* view = NULL;
  if (iree_status_is_ok(status)) {
    status = iree_hal_buffer_view_create(
        storage, rank, dims, type, IREE_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR,
        iree_runtime_session_host_allocator(session->runtime_session), &view);
  }
  iree_hal_buffer_release(storage); /* the view holds its own reference */
  error = ill_from_status(status, "zero-filling a device buffer");
  if (error) return error;
  *out_buffer = ill_buffer_wrap(view, dtype);
  return NULL;
}

void ill_buffer_release(ill_buffer* buffer) {
  if (!buffer) return;
  iree_hal_buffer_view_release(buffer->view);
  free(buffer);
  ill_live_add(-1);
}

ill_dtype ill_buffer_dtype(const ill_buffer* buffer) { return buffer->dtype; }

size_t ill_buffer_rank(const ill_buffer* buffer) {
  return iree_hal_buffer_view_shape_rank(buffer->view);
}

int64_t ill_buffer_dim(const ill_buffer* buffer, size_t index) {
  if (index >= iree_hal_buffer_view_shape_rank(buffer->view)) return -1;
  return (int64_t)iree_hal_buffer_view_shape_dims(buffer->view)[index];
}

size_t ill_buffer_byte_length(const ill_buffer* buffer) {
  return (size_t)iree_hal_buffer_view_byte_length(buffer->view);
}

uint64_t ill_buffer_storage_id(const ill_buffer* buffer) {
  iree_hal_buffer_t* storage = iree_hal_buffer_view_buffer(buffer->view);
  return (uint64_t)(uintptr_t)iree_hal_buffer_allocated_buffer(storage);
}

static ill_error* ill_check_range(const ill_buffer* buffer, size_t byte_offset,
                                  size_t byte_length) {
  size_t size = ill_buffer_byte_length(buffer);
  if (byte_offset > size || byte_length > size - byte_offset) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "byte range [%zu, %zu) is outside the buffer's "
                            "%zu bytes",
                            byte_offset, byte_offset + byte_length, size);
  }
  return NULL;
}

/* Whether the host can map |buffer| itself (CPU devices' buffers), so IREE
 * copies with a memcpy and no staging is needed. */
static bool ill_host_mappable(iree_hal_buffer_t* buffer) {
  return iree_all_bits_set(iree_hal_buffer_memory_type(buffer),
                           IREE_HAL_MEMORY_TYPE_HOST_VISIBLE) &&
         iree_all_bits_set(iree_hal_buffer_allowed_usage(buffer),
                           IREE_HAL_BUFFER_USAGE_MAPPING_SCOPED);
}

/* The session's staging buffer, grown to at least |length| bytes, for a
 * read from |device_buffer|; NULL in |*out| when the read should go
 * through IREE's own path (a mappable buffer, or more than the cap). */
static iree_status_t ill_staging_for(ill_session* session,
                                     iree_hal_buffer_t* device_buffer,
                                     iree_device_size_t length,
                                     iree_hal_buffer_t** out) {
  *out = NULL;
  if (ill_host_mappable(device_buffer) || length > ILL_STAGING_MAX) {
    return iree_ok_status();
  }
  if (session->staging_size < length) {
    iree_device_size_t size = (iree_device_size_t)64 << 10;
    while (size < length) size <<= 1;
    iree_hal_buffer_params_t params;
    memset(&params, 0, sizeof(params));
    params.type =
        IREE_HAL_MEMORY_TYPE_HOST_LOCAL | IREE_HAL_MEMORY_TYPE_DEVICE_VISIBLE;
    params.access = IREE_HAL_MEMORY_ACCESS_ALL;
    params.usage = IREE_HAL_BUFFER_USAGE_TRANSFER |
                   IREE_HAL_BUFFER_USAGE_MAPPING_SCOPED;
    iree_hal_buffer_t* grown = NULL;
    IREE_RETURN_IF_ERROR(iree_hal_allocator_allocate_buffer(
        session->device_allocator, params, size, &grown));
    iree_hal_buffer_release(session->staging);
    session->staging = grown;
    session->staging_size = size;
  }
  *out = session->staging;
  return iree_ok_status();
}

ill_error* ill_buffer_read(ill_session* session, const ill_buffer* buffer,
                           size_t byte_offset, void* target,
                           size_t byte_length) {
  ill_error* error = ill_check_range(buffer, byte_offset, byte_length);
  if (error) return error;
  if (byte_length == 0) return NULL;
  iree_hal_buffer_t* source = iree_hal_buffer_view_buffer(buffer->view);
  iree_hal_buffer_t* staging = NULL;
  iree_status_t status =
      ill_staging_for(session, source, byte_length, &staging);
  if (iree_status_is_ok(status) && staging) {
    status = iree_hal_device_transfer_d2d(
        session->device, source, byte_offset, staging, 0, byte_length,
        IREE_HAL_TRANSFER_BUFFER_FLAG_DEFAULT, iree_infinite_timeout());
    if (iree_status_is_ok(status)) {
      status = iree_hal_buffer_map_read(staging, 0, target, byte_length);
    }
  } else if (iree_status_is_ok(status)) {
    status = iree_hal_device_transfer_d2h(
        session->device, source, byte_offset, target, byte_length,
        IREE_HAL_TRANSFER_BUFFER_FLAG_DEFAULT, iree_infinite_timeout());
  }
  return ill_from_status(status, "reading a device buffer back to the host");
}

ill_error* ill_buffer_write(ill_session* session, ill_buffer* buffer,
                            size_t byte_offset, const void* source,
                            size_t byte_length) {
  ill_error* error = ill_check_range(buffer, byte_offset, byte_length);
  if (error) return error;
  if (byte_length == 0) return NULL;
  iree_status_t status = iree_hal_device_transfer_h2d(
      session->device, source, iree_hal_buffer_view_buffer(buffer->view),
      byte_offset, byte_length, IREE_HAL_TRANSFER_BUFFER_FLAG_DEFAULT,
      iree_infinite_timeout());
  return ill_from_status(status, "writing host data into a device buffer");
}

ill_error* ill_buffer_copy(ill_session* session, const ill_buffer* source,
                           size_t source_offset, ill_buffer* target,
                           size_t target_offset, size_t byte_length) {
  size_t source_length = ill_buffer_byte_length(source);
  size_t target_length = ill_buffer_byte_length(target);
  if (ill_buffer_dtype(source) != ill_buffer_dtype(target)) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "cannot copy between buffers of different "
                            "element types");
  }
  if (source_offset > source_length ||
      byte_length > source_length - source_offset ||
      target_offset > target_length ||
      byte_length > target_length - target_offset) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "cannot copy %zu bytes from offset %zu of a "
                            "%zu-byte buffer to offset %zu of a %zu-byte one",
                            byte_length, source_offset, source_length,
                            target_offset, target_length);
  }
  bool same = ill_buffer_storage_id(source) == ill_buffer_storage_id(target);
  if (byte_length == 0 || (same && source_offset == target_offset)) {
    return NULL;
  }
  if (same && source_offset < target_offset + byte_length &&
      target_offset < source_offset + byte_length) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "cannot copy overlapping ranges of one buffer");
  }
  return ill_from_status(
      iree_hal_device_transfer_d2d(
          session->device, iree_hal_buffer_view_buffer(source->view),
          source_offset, iree_hal_buffer_view_buffer(target->view),
          target_offset, byte_length, IREE_HAL_TRANSFER_BUFFER_FLAG_DEFAULT,
          iree_infinite_timeout()),
      "copying a device buffer on the device");
}

/* ---- calls -------------------------------------------------------------- */

/* The error for result |index| of a call having an element type the shim
 * does not move (a graph returning, say, i16 or f64). */
static ill_error* ill_unsupported_result(const char* context, size_t index,
                                         iree_hal_element_type_t type) {
  char name[32];
  iree_host_size_t length = 0;
  iree_status_t status =
      iree_hal_format_element_type(type, sizeof(name), name, &length);
  if (!iree_status_is_ok(status)) {
    iree_status_ignore(status);
    snprintf(name, sizeof(name), "0x%08x", (unsigned)type);
  }
  return ill_error_printf(
      ILL_ERROR_UNSUPPORTED_TYPE,
      "%s: result %zu has element type %s, which iree-llm cannot read back "
      "(it moves f32, f16, bf16, i32 and i8 tensors only)",
      context, index, name);
}

ill_error* ill_call(ill_session* session, const ill_function* function,
                    ill_buffer* const* inputs, size_t input_count,
                    ill_buffer** outputs, size_t output_count) {
  iree_vm_function_t vm_function = function->function;
  iree_string_view_t name = iree_vm_function_name(&vm_function);
  char context[512];
  snprintf(context, sizeof(context), "calling '%.*s'", (int)name.size,
           name.data);
  if (input_count != function->arg_count) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "%s: it takes %zu arguments but %zu were given",
                            context, function->arg_count, input_count);
  }
  if (output_count != function->result_count) {
    return ill_error_printf(ILL_ERROR_INVALID_ARGUMENT,
                            "%s: it returns %zu results but %zu were expected",
                            context, function->result_count, output_count);
  }

  iree_runtime_call_t call;
  ill_error* error = ill_from_status(
      iree_runtime_call_initialize(session->runtime_session, vm_function,
                                   &call),
      context);
  if (error) return error;

  iree_status_t status = iree_ok_status();
  for (size_t i = 0; i < input_count && iree_status_is_ok(status); ++i) {
    status =
        iree_runtime_call_inputs_push_back_buffer_view(&call, inputs[i]->view);
  }
  if (iree_status_is_ok(status)) {
    int batch = ill_batch_call_begin();
    status = iree_runtime_call_invoke(&call, /*flags=*/0);
    ill_batch_call_end(batch);
  }
  for (size_t i = 0; i < output_count; ++i) outputs[i] = NULL;
  ill_error* type_error = NULL;
  for (size_t i = 0; i < output_count && iree_status_is_ok(status); ++i) {
    iree_hal_buffer_view_t* view = NULL;
    status = iree_runtime_call_outputs_pop_front_buffer_view(&call, &view);
    if (!iree_status_is_ok(status)) break;
    iree_hal_element_type_t type = iree_hal_buffer_view_element_type(view);
    ill_dtype dtype;
    if (!ill_dtype_from_iree(type, &dtype)) {
      type_error = ill_unsupported_result(context, i, type);
      iree_hal_buffer_view_release(view);
      break;
    }
    outputs[i] = ill_buffer_wrap(view, dtype);
  }
  iree_runtime_call_deinitialize(&call);
  if (!iree_status_is_ok(status) || type_error) {
    /* Give back what was already handed out: the caller gets all or none. */
    for (size_t i = 0; i < output_count; ++i) {
      ill_buffer_release(outputs[i]);
      outputs[i] = NULL;
    }
  }
  if (type_error) return type_error;
  return ill_from_status(status, context);
}
