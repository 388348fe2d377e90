// Stand-in for CoreGraphics. On Linux, Foundation declares `CGRect`, so this module declares
// nothing of its own: it makes `import CoreGraphics` (and `canImport(CoreGraphics)`) compile, as
// on Apple platforms, where `CGRect` and its members live in CoreGraphics.
