package plugin

import "github.com/ctrllint/ctrllint/internal/config"

var flagNames = config.FlagNames
