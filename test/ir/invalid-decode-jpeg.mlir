// RUN: tfaot-opt %s -split-input-file -verify-diagnostics
// Verifier messages of DecodeJpeg.

func.func @channels(%c: tensor<2xi64>) -> tensor<4x4x4xui8> {
  // expected-error@+1 {{channels must be 1 or 3, got 4}}
  %0 = tfaot.DecodeJpeg %c {channels = 4 : i64} : (tensor<2xi64>) -> tensor<4x4x4xui8>
  return %0 : tensor<4x4x4xui8>
}

// -----

func.func @ratio(%c: tensor<2xi64>) -> tensor<4x4x3xui8> {
  // expected-error@+1 {{ratio must be 1, 2, 4 or 8, got 3}}
  %0 = tfaot.DecodeJpeg %c {channels = 3 : i64, ratio = 3 : i64} : (tensor<2xi64>) -> tensor<4x4x3xui8>
  return %0 : tensor<4x4x3xui8>
}

// -----

func.func @dct(%c: tensor<2xi64>) -> tensor<4x4x3xui8> {
  // expected-error@+1 {{dct_method must be "", "INTEGER_FAST" or "INTEGER_ACCURATE", got "FLOAT"}}
  %0 = tfaot.DecodeJpeg %c {channels = 3 : i64, dct_method = "FLOAT"} : (tensor<2xi64>) -> tensor<4x4x3xui8>
  return %0 : tensor<4x4x3xui8>
}

// -----

func.func @result(%c: tensor<2xi64>) -> tensor<4x4x1xui8> {
  // expected-error@+1 {{expects a static height x width x 3 image, got 'tensor<4x4x1xui8>'}}
  %0 = tfaot.DecodeJpeg %c {channels = 3 : i64} : (tensor<2xi64>) -> tensor<4x4x1xui8>
  return %0 : tensor<4x4x1xui8>
}

// -----

func.func @contents(%c: tensor<3xi64>) -> tensor<4x4x3xui8> {
  // expected-error@+1 {{expects the contents as a tensor<2xi64> bytes descriptor, got 'tensor<3xi64>'}}
  %0 = tfaot.DecodeJpeg %c {channels = 3 : i64} : (tensor<3xi64>) -> tensor<4x4x3xui8>
  return %0 : tensor<4x4x3xui8>
}

// -----

func.func @window(%c: tensor<2xi64>, %w: tensor<3xi32>) -> tensor<4x4x3xui8> {
  // expected-error@+1 {{expects crop_window as tensor<4xi32> [y, x, h, w]}}
  %0 = tfaot.DecodeJpeg %c crop %w {channels = 3 : i64} : (tensor<2xi64>, tensor<3xi32>) -> tensor<4x4x3xui8>
  return %0 : tensor<4x4x3xui8>
}

// -----

func.func @image_size(%c: tensor<2xi64>) -> tensor<4x4x3xui8> {
  // expected-error@+1 {{image_size differs from the result's size without a crop window}}
  %0 = tfaot.DecodeJpeg %c {channels = 3 : i64, image_size = array<i64: 5, 4>} : (tensor<2xi64>) -> tensor<4x4x3xui8>
  return %0 : tensor<4x4x3xui8>
}
