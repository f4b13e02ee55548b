module example.test/numbers

go 1.19

require dipswitch.test/go v0.0.0

replace dipswitch.test/go => ../../clients/go
