package report

import (
	"benchlens/analysis/compare"
	"benchlens/model"
)

// HintWords is a "next time" hint in words: its key's wording with its arguments, an argument
// that names an arm ("baseline", "candidate") worded too.
func HintWords(h model.Hint) Words { return Say(h.Key, argWords(h.Args)...) }

// argWords are a hint's or a warning's arguments, an arm's name worded, the rest as they are.
func argWords(as []string) []any {
	args := make([]any, len(as))
	for i, a := range as {
		if _, ok := hintArgWords[a]; ok {
			args[i] = Say(a)
		} else {
			args[i] = a
		}
	}
	return args
}

// HintsWords are a check's hints in words, "; " between them.
func HintsWords(hs []model.Hint) Words {
	ws := make(Clauses, len(hs))
	for i, h := range hs {
		ws[i] = HintWords(h)
	}
	return Say("%s", ws)
}

// hintArgWords are the arguments of a hint that are words.
var hintArgWords = map[string]wording{
	"baseline":  {"baseline", "基线"},
	"candidate": {"candidate", "候选"},
}

// hintWords are every checklist hint's words (compare.HintKeys), and the SLO check's.
var hintWords = map[string]wording{
	compare.HintRepeatSame:       {compare.HintRepeatSame, "两组都用相同的 %s 重新测量"},
	compare.HintDeclare:          {compare.HintDeclare, "如果 %s 就是被测的改动，请在候选组的 bundle.yaml 中声明：%s"},
	compare.HintWriteInto:        {compare.HintWriteInto, "把 %s 写入 bundle.yaml"},
	compare.HintMoreRepeats:      {compare.HintMoreRepeats, "为%[2]s再记录 %[1]s 次重复"},
	compare.HintMinP:             {compare.HintMinP, "%s 次与 %s 次运行时最小可能的 p 为 %s ≥ alpha %s：任何差异都不可能显著"},
	compare.HintAtLeast:          {compare.HintAtLeast, "每组至少记录 %s 次运行"},
	compare.HintOneRun:           {compare.HintOneRun, "每组只有一次运行：逐请求比较，无法控制运行间误差"},
	compare.HintWarmup:           {compare.HintWarmup, "记录 workload.warmup_iters 并丢弃预热请求"},
	compare.HintPower:            {compare.HintPower, "%s+%s 次运行可检测 %s；要检测 %s %% 的变化，每组需运行 %s 次"},
	compare.HintSampled:          {compare.HintSampled, "保留每个请求的记录（GuideLLM：不要用 --output-sampling）以便逐请求比较"},
	compare.HintClock:            {compare.HintClock, "检查基准测试的时钟和文件编码"},
	compare.HintServerLog:        {compare.HintServerLog, "附上每次运行的服务器日志，以便读出实际使用的后端"},
	compare.HintFallback:         {compare.HintFallback, "修复导致服务器回退的条件，然后重新测量"},
	compare.HintContradicted:     {compare.HintContradicted, "性能剖析追踪中的注意力内核与日志所述后端不符：请核对日志与追踪分别来自哪个进程"},
	compare.HintSamePath:         {compare.HintSamePath, "候选使用相同的注意力路径：到别处寻找收益"},
	compare.HintKernelsDiffer:    {compare.HintKernelsDiffer, "测量日志所声称的路径，或查明服务为何运行了其他内核"},
	compare.HintDecodeTrace:      {compare.HintDecodeTrace, "在每组中采集若干解码步的性能剖析追踪"},
	compare.HintEachStage:        {compare.HintEachStage, "分别报告每个阶段：端到端数字掩盖了不一致"},
	compare.HintNoBetter:         {compare.HintNoBetter, "没有阶段显著更好"},
	compare.HintNoBetterAnywhere: {compare.HintNoBetterAnywhere, "任何负载点都没有阶段显著更好"},
	compare.HintSamePoint:        {compare.HintSamePoint, "两组在相同的负载和请求形状下测量"},
	compare.HintHostTrace:        {compare.HintHostTrace, "在每组中采集记录主机调用的 trace：torch profiler（Kineto）trace，或 Ascend 的 trace_view.json"},
	compare.HintKineto:           {compare.HintKineto, "在每组中采集几个步骤的 torch profiler（Kineto）trace"},
	compare.HintRemoveOverhead:   {compare.HintRemoveOverhead, "去掉新增的拷贝、kernel 启动或同步"},
	compare.HintUtilTrace:        {compare.HintUtilTrace, "每组附上利用率记录（nvidia-smi、npu-smi）和 profiler trace"},
	// analysis/slo's hints
	"the candidate meets the SLO less often: find the limit that binds before calling it faster": {
		"the candidate meets the SLO less often: find the limit that binds before calling it faster", "候选满足 SLO 的比例更低：先找出起约束作用的限制，再说它更快"},
	"the attainment gain is measured only at saturated points: rerun below saturation": {
		"the attainment gain is measured only at saturated points: rerun below saturation", "达标率的提升只在饱和的负载点测得：请在饱和以下重新测量"},
	"save per-request data (vllm bench serve --save-detailed), or the tool's goodput with the SLO it used": {
		"save per-request data (vllm bench serve --save-detailed), or the tool's goodput with the SLO it used", "保存逐请求数据（vllm bench serve --save-detailed），或工具按其 SLO 计算的 goodput"},
}

// SLOHintKeys are analysis/slo's hints, which the SLO check gives as they are.
var SLOHintKeys = []string{
	"the candidate meets the SLO less often: find the limit that binds before calling it faster",
	"the attainment gain is measured only at saturated points: rerun below saturation",
	"save per-request data (vllm bench serve --save-detailed), or the tool's goodput with the SLO it used",
}

func init() {
	addWords(hintWords)
	addWords(hintArgWords)
}
