func.func @erf32(%x: f32) -> f32 {
  %y = math.erf %x : f32
  return %y : f32
}
func.func @exp32(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}
func.func @erf64(%x: f64) -> f64 {
  %y = math.erf %x : f64
  return %y : f64
}
func.func @exp64(%x: f64) -> f64 {
  %y = math.exp %x : f64
  return %y : f64
}
