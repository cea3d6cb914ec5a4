package sizing

// Names sizing gives formulas, for the scenario's model on its GPU.
const (
	WeightsGB      = "weights_gb"
	GPUMemoryGB    = "gpu_memory_gb"
	MinCardsName   = "min_cards"
	UsualCardsName = "usual_cards"
	KVGBPerReplica = "kv_gb_per_replica"
)

// Names are the names sizing provides, in display order.
func Names() []string {
	return []string{WeightsGB, GPUMemoryGB, MinCardsName, UsualCardsName, KVGBPerReplica}
}
