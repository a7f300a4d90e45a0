// Returned by the start algorithm of a TransformStream's two sides when
// the TransformStream runs their post-start steps itself (see
// initializeTransformStream).
export const kDeferredStart = Symbol('kDeferredStart');
