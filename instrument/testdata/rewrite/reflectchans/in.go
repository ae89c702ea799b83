package reflectchans

import "reflect"

func Ops(cases []reflect.SelectCase, v reflect.Value, vs []reflect.Value) (int, bool) {
	i, x, ok := reflect.Select(cases)
	v.Send(x)
	vs[i].Send(reflect.ValueOf(1))
	y, ok2 := v.Recv()
	sent := v.TrySend(y)
	_, ok3 := v.TryRecv()
	v.Close()
	_ = v.Len() // not a channel operation
	return i, ok && ok2 && sent && ok3
}
