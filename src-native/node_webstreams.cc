// internalBinding('webstreams'): small helpers for the per-chunk paths of
// lib/internal/webstreams.
//
// Two builds from this one file:
// - in-tree (NODE_WANT_INTERNALS, as for every src/*.cc of Node): an
//   internal binding with V8 Fast API entry points;
// - out-of-tree (node-gyp against the release headers, which do not ship
//   v8-fast-api-calls.h): a regular addon with the same functions, used by
//   the overlay runtime (runtime/register.cjs) in place of the binding.
// runtime/webstreams-binding.cjs is the JS fallback with the same contract;
// test/unit/binding.test.ts runs all of them over the same cases.

#if NODE_WANT_INTERNALS
#include "env-inl.h"
#include "node_binding.h"
#include "node_external_reference.h"
#include "util-inl.h"
#include "v8-fast-api-calls.h"
#else
#include <node.h>
#endif

#include <memory>

#include "v8.h"

namespace node {
namespace webstreams {

using v8::ArrayBuffer;
using v8::ArrayBufferView;
using v8::BackingStore;
using v8::Context;
using v8::Exception;
using v8::FunctionCallbackInfo;
using v8::Isolate;
using v8::Local;
using v8::Object;
using v8::String;
using v8::Uint8Array;
using v8::Value;

// Resolving a promise with a value looks up `then` only when the value is
// an object (functions and proxies included); anything else can never run
// user code, so the caller may skip the promise.
inline bool IsNonThenableImpl(Local<Value> value) {
  return !value->IsObject();
}

static void IsNonThenable(const FunctionCallbackInfo<Value>& args) {
  args.GetReturnValue().Set(IsNonThenableImpl(args[0]));
}

static void ThrowTypeError(Isolate* isolate, const char* message) {
  isolate->ThrowException(Exception::TypeError(
      String::NewFromUtf8(isolate, message).ToLocalChecked()));
}

// A new Uint8Array over a fresh copy of the bytes `view` covers: one
// allocation and one memcpy, where the JS version slices the buffer and
// then wraps the slice.
static void CloneAsUint8Array(const FunctionCallbackInfo<Value>& args) {
  Isolate* isolate = args.GetIsolate();
  if (!args[0]->IsArrayBufferView()) {
    return ThrowTypeError(
        isolate, "cloneAsUint8Array: argument must be an ArrayBufferView");
  }
  Local<ArrayBufferView> view = args[0].As<ArrayBufferView>();
  if (view->Buffer()->WasDetached()) {
    return ThrowTypeError(isolate,
                          "cloneAsUint8Array: the view's buffer is detached");
  }
  const size_t length = view->ByteLength();
  std::unique_ptr<BackingStore> store = ArrayBuffer::NewBackingStore(
      isolate, length, v8::BackingStoreInitializationMode::kUninitialized);
  if (length > 0) view->CopyContents(store->Data(), length);
  Local<ArrayBuffer> buffer = ArrayBuffer::New(isolate, std::move(store));
  args.GetReturnValue().Set(Uint8Array::New(buffer, 0, length));
}

#if NODE_WANT_INTERNALS

static bool FastIsNonThenable(Local<Value> receiver, Local<Value> value) {
  return IsNonThenableImpl(value);
}

static v8::CFunction fast_is_non_thenable(
    v8::CFunction::Make(FastIsNonThenable));

static void Initialize(Local<Object> target,
                       Local<Value> unused,
                       Local<Context> context,
                       void* priv) {
  SetFastMethodNoSideEffect(
      context, target, "isNonThenable", IsNonThenable, &fast_is_non_thenable);
  SetMethodNoSideEffect(
      context, target, "cloneAsUint8Array", CloneAsUint8Array);
}

static void RegisterExternalReferences(ExternalReferenceRegistry* registry) {
  registry->Register(IsNonThenable);
  registry->Register(fast_is_non_thenable);
  registry->Register(CloneAsUint8Array);
}

#else  // !NODE_WANT_INTERNALS

static void SetFunction(Local<Context> context,
                        Local<Object> target,
                        const char* name,
                        v8::FunctionCallback callback) {
  Isolate* isolate = Isolate::GetCurrent();
  Local<String> key = String::NewFromUtf8(isolate, name).ToLocalChecked();
  Local<v8::Function> fn = v8::FunctionTemplate::New(
                               isolate, callback, Local<Value>(),
                               Local<v8::Signature>(), 0,
                               v8::ConstructorBehavior::kThrow,
                               v8::SideEffectType::kHasNoSideEffect)
                               ->GetFunction(context)
                               .ToLocalChecked();
  fn->SetName(key);
  target->Set(context, key, fn).Check();
}

#endif  // NODE_WANT_INTERNALS

}  // namespace webstreams
}  // namespace node

#if NODE_WANT_INTERNALS
NODE_BINDING_CONTEXT_AWARE_INTERNAL(webstreams, node::webstreams::Initialize)
NODE_BINDING_EXTERNAL_REFERENCE(webstreams,
                                node::webstreams::RegisterExternalReferences)
#else
NODE_MODULE_INIT(/* exports, module, context */) {
  node::webstreams::SetFunction(
      context, exports, "isNonThenable", node::webstreams::IsNonThenable);
  node::webstreams::SetFunction(context,
                                exports,
                                "cloneAsUint8Array",
                                node::webstreams::CloneAsUint8Array);
}
#endif
