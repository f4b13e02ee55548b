module dipswitch.test/go

go 1.19
