// The tests of the made-up repository: they show three of its diagnostics.
// RUN: fake-opt %s -verify-diagnostics

// expected-error @+1 {{'fake.op' op needs a frobnicated operand of size 0, got 'f32' (too few)}}
"fake.op"() : () -> ()

// expected-error @+1 {{expected a widget; got 1 gadgets instead}}
"fake.op"() : () -> ()

// CHECK: warning: the widget {{.*}} is deprecated since version 2
