// Package queue has both in-package and external tests.
package queue

import "example.com/mod122/util"

type Queue[T any] struct{ ch chan T }

func New[T any](n int) *Queue[T] { return &Queue[T]{ch: make(chan T, n)} }

func (q *Queue[T]) Push(v T) { q.ch <- v }
func (q *Queue[T]) Pop() T   { return <-q.ch }

func Total(xs []int) int { return util.Sum(xs) }
