package report

import (
	"slices"

	"benchlens/model"
)

// WarningWords is a warning in words: its code's wording with its arguments (an argument that
// names an arm worded too).
func WarningWords(w model.Warning) Words { return Say(warningKey(w.Code), argWords(w.Args)...) }

// SortedWarnings are warnings in the order they are listed (model.SortWarnings), the data's
// own first; the slice given is left as it is.
func SortedWarnings(ws []model.Warning) []model.Warning {
	out := slices.Clone(ws)
	model.SortWarnings(out)
	return out
}

// warningKey is a warning code's key in the catalog.
func warningKey(c model.WarningCode) string { return "warning." + string(c) }

// warningZh words each warning code in Chinese; English is the code's own wording
// (model.WarningCode.EnglishFormat). A code without its row here fails a test.
var warningZh = map[model.WarningCode]string{
	model.WarnImplausible:         "数值不可能来自测量：%s",
	model.WarnEncoding:            "不是有效的 UTF-8：%s 自第 %s 字节起有 %s 个字符串的字符被替换；请存为 UTF-8（它可能是 Latin-1）",
	model.WarnToolInvalid:         "工具判定该运行无效：%s",
	model.WarnToolNaN:             "工具为 %s 写入了 NaN：视为未知",
	model.WarnNoSuccess:           "没有请求成功：工具的延迟统计（是零，不是测量值）已剔除",
	model.WarnUnitsFromNames:      "非时间指标被标为 requests/sec（perf_analyzer 的 _add_units 缺陷）；单位取自指标名",
	model.WarnNoTimeUnit:          "第 %s 行：%s %s 的单位 %s 不是时间单位；已剔除",
	model.WarnNotNumber:           "%s（%s）：%s 不是带单位的数字；已剔除",
	model.WarnRowRepeats:          "第 %s 行：%s 重复出现且取值不同；保留第一行",
	model.WarnWrapperKey:          "包装键为 %s，但结果中 max_concurrency 为 %s；保留结果自身的值",
	model.WarnSampled:             "逐请求记录只是样本（成功请求 %[2]s 个中的 %[1]s 个）：使用工具的统计，而非由样本重算的统计",
	model.WarnOutsideWindow:       "%s 条预热和 %s 条冷却请求记录在 GuideLLM 的测量窗口之外，已剔除，与工具的统计一致",
	model.WarnNoTimePoints:        "%s 条逐请求记录没有时间点：只使用工具的统计",
	model.WarnTimePointsGone:      "AISBench 的时间点在 %s 中，而它不在数据包里：请求的时间未知，使用工具的统计",
	model.WarnPartUnread:          "%s",
	model.WarnNoSummary:           "%s 缺少其汇总文件",
	model.WarnRecordsAlone:        "逐请求记录缺少其汇总文件",
	model.WarnLoadGenNote:         "LoadGen：%s",
	model.WarnLoadGenError:        "LoadGen 错误（详细日志第 %s 行）：%s %s",
	model.WarnLoadGenWarning:      "LoadGen 警告（详细日志第 %s 行）：%s %s",
	model.WarnMLPerfInteractive:   "MLPerf Interactive 场景：LoadGen 打印 Scenario : Server（区别在于更严的延迟限制）；以文件夹名为准",
	model.WarnMLPerfOfflineTimes:  "MLPerf Offline 场景：没有 TTFT 或 TPOT（LoadGen 在一次查询中发出全部样本，只计整个样本的时间）",
	model.WarnServerMetricsWindow: "服务器自身的指标取自 PromQL 查询的时间窗口，未必是该阶段的：这是服务端证据，不是运行结果",
	model.WarnOneDevice:           "GPU 行未写数量，也没有拓扑列出 GPU：按一个设备计",
	model.WarnCharsReplaced:       "不是有效的 UTF-8：部分字符被替换",
	model.WarnNoFacts:             "%s 没有写出 benchlens 读取的任何事实（驱动、软件栈、设备、NUMA）",
	model.WarnNsysNoAPI:           "没有 cuda_api_sum 报告：启动与同步未测量（每个内核实例至多一次启动：%s）",
	model.WarnNsysTotalsOnly:      "nsys stats 汇总：只有总量，没有时间线（忙碌占比与空闲间隙未测量）",
	model.WarnNsysSyncRecords:     "没有运行时 API 行：同步取自 SYNCHRONIZATION 记录",
	model.WarnNsysStepRanges:      "没有 NVTX 区间标出步号：取这 %s 个 %s 区间为各步",
	model.WarnNsysGraphReplay:     "%s 个内核由 CUDA graph 重放（设置了 graphNodeId）：由一次 cudaGraphLaunch 启动",
	model.WarnTraceDevices:        "性能剖析追踪来自不同的设备（%s 与 %s）：其时间不可比较",
	model.WarnRunSampled:          "%[1]s运行 %[2]s：逐请求记录只是样本（成功请求 %[4]s 个中的 %[3]s 个；%[5]s）；使用工具的统计",
	model.WarnRunGone:             "运行 %s 已不在库中（%s）：结论按保存时的记录；该运行自己的行与图表已略去",
	model.WarnNote:                "%s",
	model.WarnLegacy:              "%s",
}

func init() {
	table := map[string]wording{}
	for _, c := range model.WarningCodes {
		if zh, ok := warningZh[c]; ok {
			table[warningKey(c)] = wording{c.EnglishFormat(), zh}
		}
	}
	addWords(table)
}
