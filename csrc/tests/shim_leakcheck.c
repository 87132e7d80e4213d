/*
 * shim_leakcheck.c: drives every function of iree_llm_shim.h, on success and
 * error paths, on local-task and local-sync, so LeakSanitizer can prove the
 * shim releases everything (scripts/leakcheck.sh builds it with
 * -fsanitize=address and runs it). Usage: shim_leakcheck MODULE.vmfb TMPDIR
 * where MODULE is tests/fixtures/shim_test.mlir compiled for the CPU.
 * Exits non-zero on any unexpected result; leaks make LSan fail the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iree_llm_shim.h"

static int failures = 0;

#define EXPECT(cond, what)                                    \
  do {                                                        \
    if (!(cond)) {                                            \
      fprintf(stderr, "FAILED: %s (line %d)\n", what, __LINE__); \
      ++failures;                                             \
    }                                                         \
  } while (0)

/* Expects success; prints and frees an unexpected error. */
static int ok(ill_error* error, const char* what) {
  if (!error) return 1;
  fprintf(stderr, "FAILED: %s: %s\n", what, ill_error_message(error));
  ill_error_free(error);
  ++failures;
  return 0;
}

/* Expects a failure of |kind| (or any kind if kind < 0) and frees it. */
static void fails(ill_error* error, int kind, const char* what) {
  if (!error) {
    fprintf(stderr, "FAILED: %s: expected an error\n", what);
    ++failures;
    return;
  }
  if (kind >= 0 && (int)ill_error_get_kind(error) != kind) {
    fprintf(stderr, "FAILED: %s: kind %d, expected %d: %s\n", what,
            (int)ill_error_get_kind(error), kind, ill_error_message(error));
    ++failures;
  }
  EXPECT(strlen(ill_error_message(error)) > 0, "error has a message");
  ill_error_free(error);
}

static void exercise_device(ill_instance* instance, const char* device,
                            const char* module_path, const char* tmpdir) {
  ill_session* session = NULL;
  if (!ok(ill_session_create(instance, device, &session), "session create"))
    return;

  /* Error paths before the module is loaded. */
  fails(ill_session_load_module(session, "/nonexistent/x.vmfb"),
        ILL_ERROR_NOT_FOUND, "missing module");
  char corrupt_path[4096];
  snprintf(corrupt_path, sizeof(corrupt_path), "%s/corrupt.vmfb", tmpdir);
  FILE* f = fopen(corrupt_path, "wb");
  for (int i = 0; i < 4096; ++i) fputc((i * 7) % 251, f);
  fclose(f);
  fails(ill_session_load_module(session, corrupt_path), ILL_ERROR_INCOMPATIBLE,
        "corrupt module");

  ok(ill_session_load_module(session, module_path), "load module");

  ill_function* fn = NULL;
  fails(ill_session_lookup(session, "shim_test.nope", &fn), ILL_ERROR_NOT_FOUND,
        "unknown function");
  ill_function* matmul = NULL;
  ill_function* argmax = NULL;
  ill_function* update = NULL;
  ok(ill_session_lookup(session, "shim_test.matmul", &matmul), "lookup matmul");
  ok(ill_session_lookup(session, "shim_test.argmax", &argmax), "lookup argmax");
  ok(ill_session_lookup(session, "shim_test.update_state", &update),
     "lookup update_state");
  if (!matmul || !argmax || !update) goto done_functions;
  EXPECT(ill_function_result_count(update) == 1, "update returns 1");

  /* matmul: ones(4x8) @ ones(8x3) = 8 everywhere. */
  {
    float a[32], b[24], c[12];
    for (int i = 0; i < 32; ++i) a[i] = 1.0f;
    for (int i = 0; i < 24; ++i) b[i] = 1.0f;
    int64_t sa[2] = {4, 8}, sb[2] = {8, 3}, bad[2] = {4, 7};
    ill_buffer *ba = NULL, *bb = NULL, *bad_buf = NULL, *out[1] = {NULL};
    fails(ill_buffer_upload(session, ILL_DTYPE_F32, sa, 2, a, 31 * 4, &ba),
          ILL_ERROR_INVALID_ARGUMENT, "upload size mismatch");
    ok(ill_buffer_upload(session, ILL_DTYPE_F32, sa, 2, a, sizeof(a), &ba),
       "upload a");
    ok(ill_buffer_upload(session, ILL_DTYPE_F32, sb, 2, b, sizeof(b), &bb),
       "upload b");
    ok(ill_buffer_upload(session, ILL_DTYPE_F32, bad, 2, a, 28 * 4, &bad_buf),
       "upload 4x7");
    if (ba && bb && bad_buf) {
      ill_buffer* args[2] = {ba, bb};
      ill_buffer* wrong[2] = {bad_buf, bb};
      fails(ill_call(session, matmul, args, 1, out, 1),
            ILL_ERROR_INVALID_ARGUMENT, "wrong argument count");
      fails(ill_call(session, matmul, args, 2, out, 2),
            ILL_ERROR_INVALID_ARGUMENT, "wrong result count");
      fails(ill_call(session, matmul, wrong, 2, out, 1), -1, "wrong shape");
      EXPECT(out[0] == NULL, "no outputs after a failed call");
      if (ok(ill_call(session, matmul, args, 2, out, 1), "matmul call")) {
        ok(ill_buffer_read(session, out[0], 0, c, sizeof(c)), "read c");
        for (int i = 0; i < 12; ++i) EXPECT(c[i] == 8.0f, "matmul value");
        fails(ill_buffer_read(session, out[0], 8, c, sizeof(c)),
              ILL_ERROR_INVALID_ARGUMENT, "read past the end");
        ill_buffer_release(out[0]);
      }
    }
    ill_buffer_release(ba);
    ill_buffer_release(bb);
    ill_buffer_release(bad_buf);
  }

  /* argmax with ties and an in-place state update. */
  {
    float x[32] = {0};
    x[1] = x[2] = 5.0f;
    int64_t sx[2] = {2, 16};
    ill_buffer *bx = NULL, *idx[1] = {NULL};
    ok(ill_buffer_upload(session, ILL_DTYPE_F32, sx, 2, x, sizeof(x), &bx),
       "upload x");
    if (bx && ok(ill_call(session, argmax, &bx, 1, idx, 1), "argmax")) {
      int32_t got[2] = {-1, -1};
      ok(ill_buffer_read(session, idx[0], 0, got, sizeof(got)), "read idx");
      EXPECT(got[0] == 1 && got[1] == 0, "argmax ties");
      EXPECT(ill_buffer_dtype(idx[0]) == ILL_DTYPE_I32, "i32 result");
      ill_buffer_release(idx[0]);
    }
    ill_buffer_release(bx);

    int64_t sstate[3] = {4, 1024, 64}, srow[3] = {1, 1, 64};
    ill_buffer *state = NULL, *row = NULL, *slot = NULL, *pos = NULL;
    float row_data[64];
    for (int i = 0; i < 64; ++i) row_data[i] = (float)i;
    int32_t slot_v = 2, pos_v = 9;
    ok(ill_buffer_zeros(session, ILL_DTYPE_F32, sstate, 3, &state), "zeros");
    ok(ill_buffer_upload(session, ILL_DTYPE_F32, srow, 3, row_data,
                         sizeof(row_data), &row),
       "upload row");
    ok(ill_buffer_upload(session, ILL_DTYPE_I32, NULL, 0, &slot_v, 4, &slot),
       "upload slot");
    ok(ill_buffer_upload(session, ILL_DTYPE_I32, NULL, 0, &pos_v, 4, &pos),
       "upload pos");
    if (state && row && slot && pos) {
      EXPECT(ill_buffer_rank(state) == 3 && ill_buffer_dim(state, 1) == 1024,
             "state shape");
      uint64_t id = ill_buffer_storage_id(state);
      ill_buffer* args[4] = {state, row, slot, pos};
      ill_buffer* out[1] = {NULL};
      if (ok(ill_call(session, update, args, 4, out, 1), "update")) {
        EXPECT(ill_buffer_storage_id(out[0]) == id, "updated in place");
        float got[64];
        size_t offset = ((size_t)(2 * 1024 + 9) * 64) * 4;
        ok(ill_buffer_read(session, out[0], offset, got, sizeof(got)),
           "read row");
        EXPECT(got[63] == 63.0f, "row written");
        float v = 7.0f;
        ok(ill_buffer_write(session, out[0], 0, &v, 4), "write");
        ill_buffer_release(out[0]);
      }
    }
    ill_buffer_release(state);
    ill_buffer_release(row);
    ill_buffer_release(slot);
    ill_buffer_release(pos);
  }

  /* A result of an element type the shim does not move (i8): refused, and
   * the i32 result handed out before it is released. */
  {
    ill_function* with_bytes = NULL;
    ok(ill_session_lookup(session, "shim_test.with_bytes", &with_bytes),
       "lookup with_bytes");
    int32_t xs[4] = {1, -2, 3, 300};
    int64_t shape[1] = {4};
    ill_buffer *bx = NULL, *out[2] = {NULL, NULL};
    ok(ill_buffer_upload(session, ILL_DTYPE_I32, shape, 1, xs, sizeof(xs), &bx),
       "upload xs");
    if (with_bytes && bx) {
      ill_error* error = ill_call(session, with_bytes, &bx, 1, out, 2);
      EXPECT(error && strstr(ill_error_message(error), "i8"),
             "the error names the element type");
      fails(error, ILL_ERROR_UNSUPPORTED_TYPE, "i8 result");
      EXPECT(out[0] == NULL && out[1] == NULL, "no outputs after a refusal");
    }
    ill_buffer_release(bx);
    ill_function_release(with_bytes);
  }

done_functions:
  ill_function_release(matmul);
  ill_function_release(argmax);
  ill_function_release(update);
  ill_session_release(session);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODULE.vmfb TMPDIR\n", argv[0]);
    return 2;
  }
  ok(ill_set_task_worker_spin_us(20), "worker spin");
  fails(ill_set_task_worker_spin_us(-1), ILL_ERROR_INVALID_ARGUMENT, "negative worker spin");
  ill_instance* instance = NULL;
  if (!ok(ill_instance_create(&instance), "instance")) return 1;
  for (size_t i = 0; i < ill_instance_driver_count(instance); ++i) {
    char* lines = NULL;
    if (ok(ill_instance_query_devices(instance,
                                      ill_instance_driver_name(instance, i),
                                      &lines),
           "query devices")) {
      ill_string_free(lines);
    }
  }
  ill_session* none = NULL;
  fails(ill_session_create(instance, "no-such-driver", &none), -1,
        "unknown driver");
  fails(ill_session_create(instance, "local-task://7", &none), -1,
        "missing device");

  exercise_device(instance, "local-task", argv[1], argv[2]);
  exercise_device(instance, "local-sync", argv[1], argv[2]);
  ill_instance_release(instance);

  int64_t live = ill_live_handles();
  EXPECT(live == 0, "every shim handle released");
  EXPECT(strlen(ill_runtime_version()) > 0, "runtime version");
  printf("shim leak check (IREE runtime %s): %d failures, %lld live handles\n",
         ill_runtime_version(), failures, (long long)live);
  return failures ? 1 : 0;
}
