package model

// The closed sets of a comparison record (METHOD.md rule 6 and the checklist): each is a type
// of its own so a store field, a record field and a front end's switch all carry the same
// set, and the words for it (en and zh) are keyed by the value. A value is the text stored
// and printed, so it never changes once released.

// Status is a verdict of METHOD.md rule 6.
type Status string

// Verdicts (METHOD.md rule 6), best first.
const (
	Established    Status = "established"
	Offset         Status = "offset"
	Zero           Status = "zero"
	NotEstablished Status = "not_established"
)

// Statuses lists every verdict, best first.
var Statuses = []Status{Established, Offset, Zero, NotEstablished}

// CauseCode names a cause of METHOD.md.
type CauseCode string

// Cause codes: METHOD.md's, plus path_unverified for a path no server log shows.
const (
	EnvironmentDiffers      CauseCode = "environment_differs"
	LoadDrift               CauseCode = "load_drift"
	ConditionsUnverified    CauseCode = "conditions_unverified"
	MeasurementUncontrolled CauseCode = "measurement_uncontrolled"
	TargetNotHit            CauseCode = "target_not_hit"
	PathUnchanged           CauseCode = "path_unchanged"
	PathUnverified          CauseCode = "path_unverified"
	MixedPaths              CauseCode = "mixed_paths"
	PathContradicted        CauseCode = "path_contradicted" // the log resolved one backend, the kernels show another (rule 11)
	OffsetByOverhead        CauseCode = "offset_by_overhead"
	BottleneckNotInStage    CauseCode = "bottleneck_not_in_stage"
	LoadDependent           CauseCode = "load_dependent" // rule 9: holds at some load points only
)

// CauseCodes lists every cause code, in the order above: a test over it finds a code that
// has no words.
var CauseCodes = []CauseCode{EnvironmentDiffers, LoadDrift, ConditionsUnverified, MeasurementUncontrolled,
	TargetNotHit, PathUnchanged, PathUnverified, MixedPaths, PathContradicted, OffsetByOverhead,
	BottleneckNotInStage, LoadDependent}

// CheckState is the state of one line of the evidence checklist, shown green / amber / red.
type CheckState string

// Check states.
const (
	CheckOK   CheckState = "ok"
	CheckWarn CheckState = "warn"
	CheckFail CheckState = "fail"
)

// CheckStates lists every check state, good first.
var CheckStates = []CheckState{CheckOK, CheckWarn, CheckFail}

// ConditionState is how one recorded condition compares between the arms.
type ConditionState string

// Condition states.
const (
	ConditionSame    ConditionState = "same"
	ConditionDiffers ConditionState = "differs"
	ConditionUnknown ConditionState = "unknown" // a side does not say
)
